#!/usr/bin/env bash
# scale.sh [BASE_REF]
#
# The scale curve: the same per-host workload on k-ary fat trees of growing k, one point per k.
#   - builds this working tree (and, with BASE_REF, BASE_REF in a temporary git worktree), each
#     with `mvn package -pl <its launcher's module> -am`, and copies each build's jar aside;
#   - runs benchmarks/scale/fat-tree-websearch-dcqcn.yaml (DCQCN, WebSearch flow sizes, Poisson
#     arrivals at 30 % load, every link 100 Gb/s) with `--set topology.k=K --set workload.flows=F`
#     for each K, ROUNDS times; with BASE_REF base and new alternate (k, round: base, new);
#   - F = round(hosts x load x host rate x WINDOW_US / mean flow size): every host offers the same
#     load over the same arrival window (0.5 ms by default) whatever k is; FLOWS_PER_HOST=N makes
#     F = round(hosts x N) instead;
#   - prints per k and build the medians over the rounds of: events per data packet and wall us per
#     data packet and events/s (run.json: events / data_packets, wall_ns_per_data_packet,
#     events_per_sec), build seconds, peak RSS (/usr/bin/time -v) and RSS bytes per host, process
#     wall and the size of the run's output files; with BASE_REF also new / base RSS and base / new
#     wall per data packet.
# Build seconds: run.json has no build time (its wall_s is the event loop), so the script takes
# launch to the moment the run creates its --out directory: `nicsim run` builds the whole fabric
# before it writes anything (a refused scenario leaves --out untouched), so that is JVM start,
# scenario load and fabric build. It needs the file system's birth time (stat %w); "n/a" without.
# A run that fails (exit != 0, out of memory, killed) prints its k and `failed: <reason>`, skips that
# build's remaining rounds of that k and the script goes on.
# Every build and run holds the shared CPU lock (flock LOCK), so other users' builds do not disturb
# the timings. Environment: K (default "8 16 24 32 48"; even integers 2..64), ROUNDS (default 3),
# WINDOW_US (default 500), FLOWS_PER_HOST (unset), LOCK (default /tmp/nicsim-cpu.lock),
# LOCK_HELD=1 when the caller already holds that lock for the whole script, KEEP=1 keeps the
# temporary directory (every run's outputs), NICSIM_JAVA_OPTS (added to both builds' JVM flags, as
# the launcher does, e.g. -Xmx20g). Everything goes into a temporary directory, nothing into the
# repository but the builds' target/ directories.
# Exit: 0 done (failed runs included), 2 bad arguments or missing input (one line, before anything
# runs), 1 a build failed.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
template="$root/benchmarks/scale/fat-tree-websearch-dcqcn.yaml"
cdf="$root/workloads/websearch.cdf"

# ---- helpers (the test, benchmarks/src/test/sh/scale_test.sh, sources the script for these) ----

die() { echo "scale.sh: $*" >&2; exit 2; }

# json_num FILE KEY: the number of the first "KEY" : number in a JSON file (run.json), empty if none
json_num() {
  awk -v key="\"$2\"" '{
    while ((i = index($0, key)) > 0) {
      s = substr($0, i + length(key))
      if (match(s, /^[ \t]*:[ \t]*-?[0-9][0-9.eE+-]*/)) { v = substr(s, RSTART, RLENGTH); sub(/^[ \t]*:[ \t]*/, "", v); print v; exit }
      $0 = s
    }
  }' "$1"
}

# time_field FILE NAME: a field of GNU time -v's report (e.g. "Maximum resident set size (kbytes)")
time_field() { awk -F': ' -v n="$2" '{ f = $1; sub(/^[ \t]+/, "", f) } f == n { print $2; exit }' "$1"; }

# wall_seconds "h:mm:ss" or "m:ss.ss": seconds
wall_seconds() { awk -v t="$1" 'BEGIN { n = split(t, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }'; }

# mean_flow_bytes CDF: mean of a flow-size CDF file (size, cumulative percent per line; # comments),
# linear between points, as the simulator's FlowSizeCdf.meanBytes
mean_flow_bytes() {
  awk '!/^[ \t]*(#|$)/ { s = $1; p = $2 / 100; m += (n == 0) ? p * s : (p - pp) * (s + ps) / 2; n++; ps = s; pp = p }
       END { if (n == 0) exit 1; printf "%.6f\n", m }' "$1"
}

# flow_count HOSTS LOAD RATE_GBPS WINDOW_US MEAN_BYTES [FLOWS_PER_HOST]: the flows of one run, at least 1
flow_count() {
  awk -v h="$1" -v load="$2" -v g="$3" -v w="$4" -v m="$5" -v fph="${6:-}" 'BEGIN {
    f = (fph != "") ? h * fph : h * load * g * 1e9 * w * 1e-6 / (8 * m)
    f = int(f + 0.5); if (f < 1) f = 1; print f }'
}

# fat-tree sizes (docs/scenarios.md, topology.k): k^3/4 hosts, k^2/4 core + k^2 aggregation and edge
fat_tree_hosts() { echo $(( $1 * $1 * $1 / 4 )); }
fat_tree_switches() { echo $(( 5 * $1 * $1 / 4 )); }

# birth_seconds PATH: the path's birth time, epoch seconds with fraction; empty when the file system has none
birth_seconds() {
  local w; w="$(stat -c %w "$1" 2>/dev/null)" || return 0
  [ "$w" != "-" ] && [ -n "$w" ] && date -d "$w" +%s.%N 2>/dev/null || true
}

# fail_reason TIME_FILE RC LOG: why a run failed, one line
fail_reason() {
  local sig last
  sig="$(sed -n 's/.*Command terminated by signal \([0-9]*\).*/\1/p' "$1" 2>/dev/null | head -1)"
  last="$(grep -v '^[[:space:]]*$' "$3" 2>/dev/null | grep -v 'Command exited with non-zero status' | tail -1 | cut -c1-160)"
  if [ -n "$sig" ]; then
    echo "killed by signal $sig$([ "$sig" = 9 ] && echo ' (the kernel OOM killer, or a kill)')"
  elif [ "$2" = 6 ]; then
    echo "out of memory (exit 6)${last:+: $last}"
  else
    echo "exit $2${last:+: $last}"
  fi
}

# figures RUN_DIR HOSTS: one run's figures from RUN_DIR/{out/run.json, time, start}, one line:
#   flows events data_packets ev_per_pkt us_per_pkt events_per_s build_s rss_kb bytes_per_host proc_wall_s out_kb
figures() {
  local d="$1" hosts="$2" j="$1/out/run.json" built start build rss wall outkb
  start="$(cat "$d/start")"; built="$(birth_seconds "$d/out")"
  build="n/a"; [ -n "$built" ] && build="$(awk -v a="$built" -v b="$start" 'BEGIN { printf "%.2f", a - b }')"
  rss="$(time_field "$d/time" "Maximum resident set size (kbytes)")"
  wall="$(wall_seconds "$(time_field "$d/time" "Elapsed (wall clock) time (h:mm:ss or m:ss)")")"
  outkb="$(du -sk "$d/out" | awk '{ print $1 }')"
  awk -v f="$(json_num "$j" flows)" -v e="$(json_num "$j" events)" -v p="$(json_num "$j" data_packets)" \
      -v ns="$(json_num "$j" wall_ns_per_data_packet)" -v eps="$(json_num "$j" events_per_sec)" \
      -v b="$build" -v r="$rss" -v h="$hosts" -v w="$wall" -v o="$outkb" 'BEGIN {
    printf "%d %d %d %.2f %.3f %.0f %s %d %.0f %.2f %d\n", f, e, p, (p > 0 ? e / p : 0), ns / 1000, eps, b, r, r * 1024 / h, w, o }'
}

# median: the median of the numbers on standard input ("n/a" if there are none or one is "n/a")
median() {
  local v; v="$(cat)"
  if [ -z "$v" ] || grep -qx 'n/a' <<<"$v"; then echo "n/a"; return; fi
  sort -g <<<"$v" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# check_args ARGS...: validates the arguments and environment; sets base_ref, ks, rounds, window_us,
# flows_per_host; dies with one line (exit 2) on the first bad one
check_args() {
  base_ref=""
  for a in "$@"; do
    case "$a" in
      -h|--help) die "usage: benchmarks/scale.sh [BASE_REF] (environment K, ROUNDS, WINDOW_US, FLOWS_PER_HOST, LOCK, LOCK_HELD, KEEP)" ;;
      -*) die "unknown option '$a' (usage: benchmarks/scale.sh [BASE_REF])" ;;
      *) [ -z "$base_ref" ] || die "one BASE_REF at most, got '$base_ref' and '$a' (usage: benchmarks/scale.sh [BASE_REF])"
         base_ref="$a" ;;
    esac
  done
  ks="${K-8 16 24 32 48}"
  read -r -a klist <<<"$ks"
  [ "${#klist[@]}" -gt 0 ] || die "K must list at least one fat-tree k, got '$ks'"
  for k in "${klist[@]}"; do
    [[ "$k" =~ ^[1-9][0-9]*$ ]] && [ $((k % 2)) = 0 ] && [ "$k" -le 64 ] \
      || die "K: '$k' is not a fat-tree k (an even integer 2..64, topology.k in docs/scenarios.md)"
  done
  rounds="${ROUNDS:-3}"
  [[ "$rounds" =~ ^[1-9][0-9]*$ ]] || die "ROUNDS must be a positive integer, got '$rounds'"
  window_us="${WINDOW_US:-500}"
  [[ "$window_us" =~ ^([0-9]+\.?[0-9]*|\.[0-9]+)$ ]] && awk -v w="$window_us" 'BEGIN { exit !(w > 0) }' \
    || die "WINDOW_US must be a positive number of microseconds, got '$window_us'"
  flows_per_host="${FLOWS_PER_HOST:-}"
  if [ -n "$flows_per_host" ]; then
    [[ "$flows_per_host" =~ ^([0-9]+\.?[0-9]*|\.[0-9]+)$ ]] && awk -v w="$flows_per_host" 'BEGIN { exit !(w > 0) }' \
      || die "FLOWS_PER_HOST must be a positive number, got '$flows_per_host'"
  fi
}

# template_value KEY: a scalar of the scenario template (the workload's load, the host link's rate)
template_value() {
  case "$1" in
    load) awk '/^workload:/ { w = 1; next } /^[^ #]/ { w = 0 } w && $1 == "load:" { print $2; exit }' "$template" ;;
    rate_gbps) sed -n 's/^  host_link: {rate_gbps: \([0-9.]*\),.*/\1/p' "$template" | head -1 ;;
  esac
}

if [[ "${BASH_SOURCE[0]}" != "$0" ]]; then return 0; fi  # sourced by the test: helpers only

# ---- checks: every one before anything runs ----
check_args "$@"
[ -f "$template" ] || die "$template not found"
[ -f "$cdf" ] || die "$cdf not found"
load="$(template_value load)"; rate_gbps="$(template_value rate_gbps)"
[ -n "$load" ] && [ -n "$rate_gbps" ] || die "$template: workload.load or topology.host_link.rate_gbps not found"
mean_bytes="$(mean_flow_bytes "$cdf")" || die "$cdf: no flow-size points"
[ -x /usr/bin/time ] || die "/usr/bin/time (GNU time) is needed for peak RSS"
base_sha=""
if [ -n "$base_ref" ]; then
  base_sha="$(git -C "$root" rev-parse --verify --quiet "$base_ref^{commit}")" \
    || die "BASE_REF '$base_ref' is not a commit of $root"
fi
lock="${LOCK:-/tmp/nicsim-cpu.lock}"
locked() { if [ "${LOCK_HELD:-0}" = 1 ]; then "$@"; else flock "$lock" "$@"; fi; }

tmp="$(mktemp -d "${TMPDIR:-/tmp}/scale.XXXXXX")"
base_tree="$tmp/base-tree"
cleanup() {
  [ -z "$base_sha" ] || git -C "$root" worktree remove --force "$base_tree" >/dev/null 2>&1 || true
  if [ "${KEEP:-0}" = 1 ]; then echo "kept $tmp"; else rm -rf "$tmp"; fi
}
trap cleanup EXIT

builds=(new); [ -n "$base_sha" ] && builds=(base new)
echo "scale: new $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$root" diff --quiet HEAD -- . ':!out' 2>/dev/null || echo '+changes')${base_sha:+, base $base_ref ($base_sha)}, k $ks, $rounds round(s)"
if [ -n "$flows_per_host" ]; then
  echo "workload: WebSearch (mean $(printf '%.0f' "$mean_bytes") B), Poisson at load $load of $rate_gbps Gb/s, $flows_per_host flows per host, DCQCN"
else
  echo "workload: WebSearch (mean $(printf '%.0f' "$mean_bytes") B), Poisson at load $load of $rate_gbps Gb/s, arrivals over $window_us us, DCQCN"
fi
echo "machine: $(nproc) cores, $(free -g 2>/dev/null | awk '/^Mem:/ { print $2 " GB," }') $(java -version 2>&1 | head -1), $(date -u '+%Y-%m-%d %H:%M UTC'), load:$(uptime | sed 's/.*load average://')"

# launcher_value TREE NAME: the launcher's jar path (relative to the tree) or module
launcher_value() {
  case "$2" in
    jar) sed -n 's/^jar="\$root\/\(.*\)"$/\1/p' "$1/nicsim" | head -1 ;;
    module) sed -n 's/^module=\([A-Za-z0-9_-]*\)$/\1/p' "$1/nicsim" | head -1 ;;
  esac
}
jvm_flags() { # the launcher's JVM_FLAGS and, where it has them, SIM_FLAGS (the collector choice)
  local f; f="$(for a in JVM_FLAGS SIM_FLAGS; do sed -n "/^$a=(/,/^)/p" "$1/nicsim" | sed '1d;$d'; done | sed 's/#.*//' | tr -s ' \n' ' ')"
  case " ${NICSIM_JAVA_OPTS:-} " in # a collector named there replaces the launcher's, as ./nicsim does
    *" -XX:+Use"*"GC "*) f="$(sed 's/ -XX:+UseSerialGC / /; s/ -Xmn16m / /' <<<" $f ")" ;;
  esac
  echo "$f ${NICSIM_JAVA_OPTS:-}"
}
build() { # build BUILD TREE: package the tree's command-line jar and copy it and its flags aside
  local b="$1" tree="$2" module jar
  jar="$(launcher_value "$tree" jar)"; module="$(launcher_value "$tree" module)"
  module="${module:-${jar%%/*}}" # launchers without module= build the module their jar is in
  [ -n "$module" ] && [ -n "$jar" ] || { echo "scale.sh: $tree/nicsim names no jar or module" >&2; exit 1; }
  (cd "$tree" && locked mvn -B -o -q -DskipTests package -pl "$module" -am) > "$tmp/build-$b.log" 2>&1 \
    || { { grep -E '\[ERROR\]' "$tmp/build-$b.log" || tail -5 "$tmp/build-$b.log"; } | head -20 >&2
         echo "scale.sh: build of $tree failed" >&2; exit 1; }
  mkdir -p "$tmp/$b"
  cp "$tree/$jar" "$tmp/$b/nicsim.jar"
  jvm_flags "$tree" > "$tmp/$b/jvm.flags"
}
if [ -n "$base_sha" ]; then
  git -C "$root" worktree add --detach "$base_tree" "$base_sha" >/dev/null 2>&1
  echo "building base and new..."
  build base "$base_tree"
else
  echo "building..."
fi
build new "$root"
cp "$template" "$tmp/scale.yaml"
cp "$cdf" "$tmp/websearch.cdf"

# run_one BUILD K ROUND: one run under the lock; appends its figures to $tmp/BUILD/kK.results, or
# writes the reason to $tmp/BUILD/kK.failed
run_one() {
  local b="$1" k="$2" r="$3" d hosts flows rc=0 line
  d="$tmp/$b/k$k-r$r"; mkdir -p "$d"
  hosts="$(fat_tree_hosts "$k")"
  flows="$(flow_count "$hosts" "$load" "$rate_gbps" "$window_us" "$mean_bytes" "$flows_per_host")"
  locked /usr/bin/time -v -o "$d/time" bash -c 'd="$1"; shift; date +%s.%N > "$d/start"
      exec java $(cat "$d/../jvm.flags") -jar "$d/../nicsim.jar" run "$@" --out "$d/out"' _ "$d" "$tmp/scale.yaml" \
    --set "topology.k=$k" --set "workload.flows=$flows" --set "workload.cdf=$tmp/websearch.cdf" > "$d/log" 2>&1 || rc=$?
  if [ "$rc" != 0 ] || [ ! -f "$d/out/run.json" ]; then
    line="$(fail_reason "$d/time" "$rc" "$d/log")"
    echo "$line" > "$tmp/$b/k$k.failed"
    printf '  round %d %-4s k=%-3s failed: %s\n' "$r" "$b" "$k" "$line"
  else
    line="$(figures "$d" "$hosts")"
    echo "$line" >> "$tmp/$b/k$k.results"
    awk -v r="$r" -v b="$b" -v k="$k" '{ printf "  round %d %-4s k=%-3s %7.2f s %8.0f MB %6.3f us/pkt\n", r, b, k, $10, $8 / 1024, $5 }' <<<"$line"
  fi
  [ "${KEEP:-0}" = 1 ] || rm -rf "$d/out"
}

for k in "${klist[@]}"; do
  for r in $(seq 1 "$rounds"); do
    for b in "${builds[@]}"; do
      [ -f "$tmp/$b/k$k.failed" ] || run_one "$b" "$k" "$r"
    done
  done
done

# column C (1-based, of figures' line) median of BUILD's rounds at k
med() { awk -v c="$3" '{ print $c }' "$tmp/$1/k$2.results" | median; }
echo
echo "medians of $rounds round(s); build_s: launch to fabric built (JVM start, scenario load, fabric build)"
printf '%4s %-5s %7s %8s %7s %7s %8s %7s %7s %8s %10s %8s %7s\n' \
  k build hosts switches flows ev/pkt us/pkt Mev/s build_s rss_MB B/host wall_s out_MB
for k in "${klist[@]}"; do
  for b in "${builds[@]}"; do
    hosts="$(fat_tree_hosts "$k")"; sw="$(fat_tree_switches "$k")"
    if [ -f "$tmp/$b/k$k.failed" ]; then
      printf '%4s %-5s %7s %8s failed: %s\n' "$k" "$b" "$hosts" "$sw" "$(cat "$tmp/$b/k$k.failed")"
      continue
    fi
    awk -v k="$k" -v b="$b" -v h="$hosts" -v s="$sw" -v f="$(med "$b" "$k" 1)" -v e="$(med "$b" "$k" 4)" \
        -v u="$(med "$b" "$k" 5)" -v eps="$(med "$b" "$k" 6)" -v bs="$(med "$b" "$k" 7)" -v r="$(med "$b" "$k" 8)" \
        -v bh="$(med "$b" "$k" 9)" -v w="$(med "$b" "$k" 10)" -v o="$(med "$b" "$k" 11)" 'BEGIN {
      printf "%4s %-5s %7d %8d %7d %7.2f %8.3f %7.2f %7s %8.0f %10.0f %8.2f %7.1f\n", k, b, h, s, f, e, u, eps / 1e6, bs, r / 1024, bh, w, o / 1024 }'
  done
done
if [ -n "$base_sha" ]; then
  echo
  printf '%4s %14s %16s\n' k rss_new/base wall_base/new
  for k in "${klist[@]}"; do
    if [ -f "$tmp/base/k$k.failed" ] || [ -f "$tmp/new/k$k.failed" ]; then printf '%4s %14s %16s\n' "$k" - -; continue; fi
    awk -v k="$k" -v rb="$(med base "$k" 8)" -v rn="$(med new "$k" 8)" -v ub="$(med base "$k" 5)" -v un="$(med new "$k" 5)" 'BEGIN {
      printf "%4s %14.2f %15.2fx\n", k, rn / rb, ub / un }'
  done
fi
echo "load after: $(uptime | sed 's/.*load average://')"
