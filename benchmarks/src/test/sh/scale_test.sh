#!/usr/bin/env bash
# Checks of benchmarks/scale.sh that run no simulation: its argument checks (one line, exit 2,
# nothing created) and the helpers that turn a run's run.json and GNU time report into the printed
# figures, against numbers worked out by hand below. Run by ScaleScriptTest (or by hand from any
# directory). Prints "ok NAME" or "FAIL NAME: why" per check; exits 1 if any failed.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../../.." && pwd)"
script="$root/benchmarks/scale.sh"
failures=0
work="$(mktemp -d "${TMPDIR:-/tmp}/scale-test.XXXXXX")"
trap 'rm -rf "$work"' EXIT

ok() { echo "ok $1"; }
fail() { echo "FAIL $1: $2"; failures=$((failures + 1)); }
check_eq() { if [ "$2" = "$3" ]; then ok "$1"; else fail "$1" "expected '$3', got '$2'"; fi; }

# ---- argument checks: exit 2, one line on standard error, nothing on standard output, nothing made ----
refuse() { # refuse NAME EXPECTED_MESSAGE_PART ENV... -- ARGS...
  local name="$1" want="$2" envs=() t rc=0
  shift 2
  while [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  t="$work/$name"; mkdir -p "$t/tmp"
  # a lock in a directory that does not exist: should a check let bad input through, the script's
  # first build fails at flock (exit 1) instead of building and running outside the shared lock
  env "${envs[@]}" TMPDIR="$t/tmp" LOCK="$t/no-such-dir/lock" LOCK_HELD=0 "$script" "$@" > "$t/out" 2> "$t/err" || rc=$?
  if [ "$rc" != 2 ]; then fail "$name" "exit $rc, expected 2 ($(head -c 300 "$t/err"))"
  elif [ "$(wc -l < "$t/err")" != 1 ]; then fail "$name" "standard error has $(wc -l < "$t/err") lines: $(head -c 300 "$t/err")"
  elif ! grep -q -- "$want" "$t/err"; then fail "$name" "message lacks '$want': $(cat "$t/err")"
  elif [ -s "$t/out" ]; then fail "$name" "wrote to standard output: $(head -c 300 "$t/out")"
  elif [ -n "$(ls -A "$t/tmp")" ]; then fail "$name" "made files before refusing: $(ls -A "$t/tmp")"
  else ok "$name"; fi
}
refuse two-refs "one BASE_REF at most" -- main other
refuse unknown-option "unknown option '--rounds=2'" -- --rounds=2
refuse help "usage: benchmarks/scale.sh" -- --help
refuse odd-k "K: '9' is not a fat-tree k" K="8 9" --
refuse k-above-64 "K: '66' is not a fat-tree k" K="8 66" --
refuse k-not-number "K: 'x' is not a fat-tree k" K="x" --
refuse empty-k "K must list at least one" K="" --
refuse zero-rounds "ROUNDS must be a positive integer, got '0'" ROUNDS=0 --
refuse word-rounds "ROUNDS must be a positive integer, got 'three'" ROUNDS=three --
refuse negative-window "WINDOW_US must be a positive number" WINDOW_US=-5 --
refuse zero-window "WINDOW_US must be a positive number" WINDOW_US=0 --
refuse word-flows-per-host "FLOWS_PER_HOST must be a positive number, got 'abc'" FLOWS_PER_HOST=abc --
if git -C "$root" rev-parse --git-dir > /dev/null 2>&1; then
  refuse not-a-commit "BASE_REF 'no-such-ref-of-scale-test' is not a commit" -- no-such-ref-of-scale-test
else
  echo "skip not-a-commit: $root is not a git repository"
fi

# ---- the helpers, sourced (the script returns before its checks when sourced) ----
# shellcheck source=../../../scale.sh
source "$script"
set +e

# fat tree sizes: k^3/4 hosts, 5k^2/4 switches (k = 48: the issue's 27,648 hosts and 2,880 switches)
check_eq hosts-k8 "$(fat_tree_hosts 8)" 128
check_eq switches-k8 "$(fat_tree_switches 8)" 80
check_eq hosts-k48 "$(fat_tree_hosts 48)" 27648
check_eq switches-k48 "$(fat_tree_switches 48)" 2880

# mean of a CDF, linear between points: (0,0) (100,50 %) (300,100 %) -> 0.5 x 50 + 0.5 x 200 = 125 B
printf '# sizes and percent\n0 0\n\n100 50\n300 100\n' > "$work/tiny.cdf"
check_eq mean-tiny-cdf "$(mean_flow_bytes "$work/tiny.cdf")" 125.000000
# workloads/websearch.cdf states its mean in its header: 1,711,250 B
check_eq mean-websearch "$(mean_flow_bytes "$root/workloads/websearch.cdf")" 1711250.000000

# flows = hosts x load x rate x window / mean: 128 x 0.3 x 100e9 b/s x 500e-6 s / (8 x 1,711,250 B)
# = 1.92e9 / 1.369e7 = 140.248 -> 140; k = 48: 27,648 x 0.3 x 100e9 x 500e-6 = 4.1472e11,
# / 1.369e7 = 30,293.6 -> 30,294
check_eq flows-k8 "$(flow_count 128 0.3 100 500 1711250)" 140
check_eq flows-k48 "$(flow_count 27648 0.3 100 500 1711250)" 30294
check_eq flows-per-host "$(flow_count 128 0.3 100 500 1711250 3)" 384
check_eq flows-at-least-one "$(flow_count 2 0.3 100 0.001 1711250)" 1
check_eq template-load "$(template_value load)" 0.3
check_eq template-rate "$(template_value rate_gbps)" 100

check_eq median-odd "$(printf '3\n1\n2\n' | median)" 2
check_eq median-even "$(printf '4\n1\n3\n2\n' | median)" 2.5
check_eq median-na "$(printf '1.5\nn/a\n' | median)" n/a
check_eq median-none "$(printf '' | median)" n/a
check_eq wall-m-ss "$(wall_seconds 0:02.67)" 2.67
check_eq wall-h-mm-ss "$(wall_seconds 1:02:03.5)" 3723.5
check_eq json-compact "$(printf '{"events":12,"data_packets":3}' > "$work/c.json"; json_num "$work/c.json" data_packets)" 3
check_eq json-absent "$(json_num "$work/c.json" flows)" ""

# one run's figures: run.json as `nicsim run` writes it (k = 8, 140 flows), GNU time -v's report
d="$work/run"; mkdir -p "$d"
before="$(date +%s.%N)"
mkdir "$d/out"
awk -v b="$before" 'BEGIN { printf "%.9f\n", b - 1.25 }' > "$d/start"   # launched 1.25 s before --out appeared
cat > "$d/out/run.json" <<'EOF'
{
  "scenario" : "scale-fat-tree-websearch-dcqcn",
  "seed" : 1,
  "simulated_ns" : 5689420,
  "wall_s" : 1.563905028,
  "events" : 4178763,
  "events_per_sec" : 2672006,
  "data_packets" : 239747,
  "wall_ns_per_data_packet" : 6523.1,
  "flows" : 140,
  "flows_completed" : 140
}
EOF
cat > "$d/time" <<'EOF'
	Command being timed: "bash -c ..."
	User time (seconds): 3.41
	Percent of CPU this job got: 171%
	Elapsed (wall clock) time (h:mm:ss or m:ss): 0:02.67
	Average resident set size (kbytes): 0
	Maximum resident set size (kbytes): 150476
	Exit status: 0
EOF
read -r f e p epp upp eps build rss bph wall outkb <<<"$(figures "$d" 128)"
check_eq fig-flows "$f" 140
check_eq fig-events "$e" 4178763
check_eq fig-packets "$p" 239747
check_eq fig-events-per-packet "$epp" 17.43        # 4,178,763 / 239,747 = 17.4299
check_eq fig-us-per-packet "$upp" 6.523            # 6,523.1 ns
check_eq fig-events-per-s "$eps" 2672006
check_eq fig-rss-kb "$rss" 150476
check_eq fig-bytes-per-host "$bph" 1203808         # 150,476 KiB x 1,024 / 128 hosts
check_eq fig-wall "$wall" 2.67
if [[ "$outkb" =~ ^[1-9][0-9]*$ ]]; then ok fig-out-kb; else fail fig-out-kb "not a positive size: '$outkb'"; fi
if [ -z "$(birth_seconds "$d/out")" ]; then
  check_eq fig-build-no-birth-time "$build" n/a
elif awk -v b="$build" 'BEGIN { exit !(b >= 1.25 && b < 11.25) }'; then
  ok fig-build-seconds
else
  fail fig-build-seconds "expected 1.25 s plus the moment between the clock read and mkdir, got '$build'"
fi

# why a run failed
printf '\tCommand terminated by signal 9\n\tMaximum resident set size (kbytes): 9\n' > "$work/killed.time"
printf 'x\n' > "$work/log"
check_eq fail-signal "$(fail_reason "$work/killed.time" 137 "$work/log")" "killed by signal 9 (the kernel OOM killer, or a kill)"
printf '\tCommand exited with non-zero status 6\n\tExit status: 6\n' > "$work/oom.time"
printf 'scenario x\nnicsim: out of memory in a 6144 MB heap; give more with NICSIM_JAVA_OPTS=-Xmx...\n\n' > "$work/oom.log"
check_eq fail-oom "$(fail_reason "$work/oom.time" 6 "$work/oom.log")" \
  "out of memory (exit 6): nicsim: out of memory in a 6144 MB heap; give more with NICSIM_JAVA_OPTS=-Xmx..."
printf 'file.yaml:3: topology.k: expected an even integer\nCommand exited with non-zero status 2\n' > "$work/bad.log"
check_eq fail-exit "$(fail_reason "$work/oom.time" 2 "$work/bad.log")" "exit 2: file.yaml:3: topology.k: expected an even integer"

if [ "$failures" -gt 0 ]; then echo "$failures check(s) failed"; exit 1; fi
echo "all checks passed"
