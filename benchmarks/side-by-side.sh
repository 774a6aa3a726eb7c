#!/usr/bin/env bash
# side-by-side.sh BASE_REF [ROUNDS] [--ns3]
#
# Measures this working tree's nicsim against BASE_REF side by side, on one machine, in one run:
#   - builds BASE_REF in a temporary git worktree and this tree (mvn package -pl cli -am; -pl fabric for a
#     tree from before the command line had its own module);
#   - imports the HPCC ns-3 fat-tree experiment (DCQCN and HPCC configurations) with each build
#     (`nicsim ns3 import`, see docs/ns3.md);
#   - runs the two imports and scenarios/websearch-leafspine-dcqcn.yaml with both builds,
#     alternating (base, new, base, new, ...), ROUNDS times (default 3);
#   - prints for each scenario and build the median wall time (s, whole process), the peak RSS
#     (MB, /usr/bin/time -v), events per data packet (the run summary's `events` over its
#     `data packets`), and the ratios base / new (speed-up) and new / base (RSS); then whether
#     each scenario's fct.txt is byte-identical across the new build's rounds and against base;
#   - with --ns3, also runs the HPCC ns-3 binary (bin/run.sh) once per fat-tree configuration and
#     prints nicsim's speed-up over it (ns-3 wall / nicsim median wall, new build).
#
# Every build and every timed run holds the shared CPU lock (flock /tmp/nicsim-cpu.lock), so
# other users' builds do not disturb the timings (the runs between them do not hold it).
# Environment: NS3_DIR (default ../shared/peers/hpcc-ns3 from the repository root),
# LOCK (default /tmp/nicsim-cpu.lock), LOCK_HELD=1 when the caller already holds that lock for the
# whole script (the script then takes it nowhere; taking it again would wait for itself),
# KEEP=1 keeps the temporary directory, NEW_RUN_ARGS adds arguments to the new build's runs only
# (word-split; e.g. NEW_RUN_ARGS="--partitions 4" times a partitioned run against the base's
# sequential one; the base build may not know the option).
# Exit: 0 done, 2 bad arguments or missing input, 1 a build or run failed.
set -euo pipefail

usage() { echo "usage: $0 BASE_REF [ROUNDS] [--ns3]" >&2; exit 2; }
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
base_ref=""; rounds=3; with_ns3=0
for a in "$@"; do
  case "$a" in
    --ns3) with_ns3=1 ;;
    -h|--help) usage ;;
    *) if [ -z "$base_ref" ]; then base_ref="$a"
       elif [[ "$a" =~ ^[1-9][0-9]*$ ]]; then rounds="$a"
       else echo "side-by-side.sh: ROUNDS must be a positive integer, got '$a'" >&2; exit 2; fi ;;
  esac
done
[ -n "$base_ref" ] || usage
lock="${LOCK:-/tmp/nicsim-cpu.lock}"
locked() { if [ "${LOCK_HELD:-0}" = 1 ]; then "$@"; else flock "$lock" "$@"; fi; }
ns3="${NS3_DIR:-$root/../shared/peers/hpcc-ns3}"
for f in config_fat_ws30_5ms_dcqcn.txt config_fat_ws30_5ms_hp95.txt fat.txt flows-websearch30-5ms.txt; do
  [ -f "$ns3/$f" ] || { echo "side-by-side.sh: $ns3/$f not found (set NS3_DIR to the HPCC ns-3 peer directory)" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "side-by-side.sh: /usr/bin/time (GNU time) is needed for peak RSS" >&2; exit 2; }
base_sha="$(git -C "$root" rev-parse --verify --quiet "$base_ref^{commit}")" \
  || { echo "side-by-side.sh: BASE_REF '$base_ref' is not a commit of $root" >&2; exit 2; }

tmp="$(mktemp -d "${TMPDIR:-/tmp}/side-by-side.XXXXXX")"
base_tree="$tmp/base-tree"  # not $tmp/base: that holds the base build's jar and results, which KEEP=1 keeps
cleanup() {
  git -C "$root" worktree remove --force "$base_tree" >/dev/null 2>&1 || true
  [ "${KEEP:-0}" = 1 ] || rm -rf "$tmp"
}
trap cleanup EXIT

echo "side-by-side: base $base_ref ($base_sha), new $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- . ':!out' || echo '+changes'), $rounds rounds"
new_run_args=(); read -r -a new_run_args <<<"${NEW_RUN_ARGS:-}"
[ "${#new_run_args[@]}" -gt 0 ] && echo "new build's run arguments: ${new_run_args[*]}"
echo "machine: $(nproc) cores, $(java -version 2>&1 | head -1), $(date -u '+%Y-%m-%d %H:%M UTC'), load:$(uptime | sed 's/.*load average://')"

cli_module() { # cli_module TREE: the module whose target/ holds that tree's nicsim.jar
  if [ -f "$1/cli/pom.xml" ]; then echo cli; else echo fabric; fi
}
build() { # build TREE
  (cd "$1" && locked mvn -B -o -q -DskipTests package -pl "$(cli_module "$1")" -am) > "$tmp/build.log" 2>&1 \
    || { grep -E '\[ERROR\]' "$tmp/build.log" | head -20 >&2; echo "side-by-side.sh: build of $1 failed" >&2; exit 1; }
}
git -C "$root" worktree add --detach "$base_tree" "$base_sha" >/dev/null 2>&1
echo "building base and new..."
build "$base_tree"
build "$root"

# Each build's jar is copied aside and run with the JVM flags of its own launcher (./nicsim), so a
# later build in this tree, or the launcher's rebuild-when-stale check, cannot change what is timed.
# The simulation commands' flags are JVM_FLAGS plus, where the launcher has it, SIM_FLAGS (the
# collector choice, added 2026-11-27; a base build without it runs with the JVM's default).
jvm_flags() {
  for a in JVM_FLAGS SIM_FLAGS; do sed -n "/^$a=(/,/^)/p" "$1/nicsim" | sed '1d;$d'; done | tr -d '\n'
}
for b in base new; do
  tree="$root"; [ "$b" = base ] && tree="$base_tree"
  mkdir -p "$tmp/$b"
  cp "$tree/$(cli_module "$tree")/target/nicsim.jar" "$tmp/$b/nicsim.jar"
  jvm_flags "$tree" > "$tmp/$b/jvm.flags"
done
nicsim_of() { # nicsim_of BUILD ARGS...: runs that build's copied jar
  local b="$1"; shift
  # shellcheck disable=SC2046 # the launcher's flags are words without spaces
  java $(cat "$tmp/$b/jvm.flags") -jar "$tmp/$b/nicsim.jar" "$@"
}
names=(fat-dcqcn fat-hpcc websearch-leafspine-dcqcn)
for b in base new; do
  tree="$root"; [ "$b" = base ] && tree="$base_tree"
  mkdir -p "$tmp/$b"
  for c in dcqcn hp95; do
    n=fat-dcqcn; [ "$c" = hp95 ] && n=fat-hpcc
    nicsim_of "$b" ns3 import "$ns3/config_fat_ws30_5ms_$c.txt" --topology "$ns3/fat.txt" \
      --flows "$ns3/flows-websearch30-5ms.txt" --to "$tmp/$b/$n.yaml" > "$tmp/$b/$n.import.log" 2>&1 \
      || { cat "$tmp/$b/$n.import.log" >&2; echo "side-by-side.sh: ns3 import ($b, $c) failed" >&2; exit 1; }
  done
  for n in "${names[@]}"; do echo "$tmp/$b/$n.yaml" > "$tmp/$b/$n.path"; done
  # a shipped scenario is run from its own tree: it names its workload file relative to itself
  echo "$tree/scenarios/websearch-leafspine-dcqcn.yaml" > "$tmp/$b/websearch-leafspine-dcqcn.path"
done

# run_one BUILD NAME ROUND: one timed run under the lock; appends "wall_s rss_kb events packets".
run_one() {
  local b="$1" n="$2" r="$3" out extra=()
  out="$tmp/$b/out-$n-$r"
  [ "$b" = new ] && extra=("${new_run_args[@]}")
  locked /usr/bin/time -v -o "$out.time" bash -c 'a="$1" j="$2" s="$3" o="$4"; shift 4; java $(cat "$a") -jar "$j" run "$s" --out "$o" "$@"' _ \
    "$tmp/$b/jvm.flags" "$tmp/$b/nicsim.jar" "$(cat "$tmp/$b/$n.path")" "$out" "${extra[@]}" > "$out.log" 2>&1 \
    || { tail -20 "$out.log" >&2; echo "side-by-side.sh: run $b $n failed" >&2; exit 1; }
  local wall rss events packets
  wall="$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,t,":"); s=0; for(i=1;i<=n;i++) s=s*60+t[i]; print s}' "$out.time")"
  rss="$(awk -F': ' '/Maximum resident/ {print $2}' "$out.time")"
  events="$(awk '$1=="events" {print $2}' "$out.log")"
  packets="$(awk '$1=="data" && $2=="packets" {print $3}' "$out.log")"
  echo "$wall $rss $events $packets" >> "$tmp/$b/$n.results"
  printf '  round %d %-4s %-26s %7.2f s %7.0f MB\n' "$r" "$b" "$n" "$wall" "$(awk -v k="$rss" 'BEGIN {print k / 1024}')"
  cp "$out/fct.txt" "$tmp/$b/$n.fct.$r"
  rm -rf "$out"
}

for r in $(seq 1 "$rounds"); do
  for n in "${names[@]}"; do
    run_one base "$n" "$r"
    run_one new "$n" "$r"
  done
done

median() { sort -g | awk '{v[NR]=$1} END {if (NR%2) print v[(NR+1)/2]; else print (v[NR/2]+v[NR/2+1])/2}'; }
echo
printf '%-26s %10s %10s %8s %10s %10s %8s %9s %9s\n' scenario base_wall_s new_wall_s speedup base_rss_MB new_rss_MB rss_ratio base_ev/pkt new_ev/pkt
declare -A new_wall
for n in "${names[@]}"; do
  bw="$(awk '{print $1}' "$tmp/base/$n.results" | median)"; nw="$(awk '{print $1}' "$tmp/new/$n.results" | median)"
  br="$(awk '{print $2}' "$tmp/base/$n.results" | median)"; nr="$(awk '{print $2}' "$tmp/new/$n.results" | median)"
  be="$(head -1 "$tmp/base/$n.results" | awk '{printf "%.2f", $3/$4}')"; ne="$(head -1 "$tmp/new/$n.results" | awk '{printf "%.2f", $3/$4}')"
  new_wall[$n]="$nw"
  awk -v n="$n" -v bw="$bw" -v nw="$nw" -v br="$br" -v nr="$nr" -v be="$be" -v ne="$ne" 'BEGIN {
    printf "%-26s %10.2f %10.2f %7.2fx %10.0f %10.0f %8.2f %9s %9s\n", n, bw, nw, bw/nw, br/1024, nr/1024, nr/br, be, ne }'
done

echo
for n in "${names[@]}"; do # fct.txt: one line per completed flow (docs/ns3.md)
  same_run="identical"; for r in $(seq 2 "$rounds"); do cmp -s "$tmp/new/$n.fct.1" "$tmp/new/$n.fct.$r" || same_run="DIFFERENT"; done
  vs_base="identical"; cmp -s "$tmp/base/$n.fct.1" "$tmp/new/$n.fct.1" || vs_base="different (compare both with ./nicsim compare)"
  printf '%-26s fct.txt: new run to run %s; new vs base %s\n' "$n" "$same_run" "$vs_base"
done

if [ "$with_ns3" = 1 ]; then
  echo
  printf '%-26s %10s %10s %8s %10s\n' scenario ns3_wall_s new_wall_s speedup ns3_rss_MB
  for c in dcqcn hp95; do
    n=fat-dcqcn; [ "$c" = hp95 ] && n=fat-hpcc
    line="$(TOPO="$ns3/fat.txt" FLOWS="$ns3/flows-websearch30-5ms.txt" locked \
      "$ns3/bin/run.sh" "$ns3/config_fat_ws30_5ms_$c.txt" "$tmp/ns3-$c" 2>"$tmp/ns3-$c.err" | tail -1)" \
      || { cat "$tmp/ns3-$c.err" >&2; echo "side-by-side.sh: ns-3 run ($c) failed" >&2; exit 1; }
    w="$(sed -n 's/.*wall_s=\([0-9.]*\).*/\1/p' <<<"$line")"; k="$(sed -n 's/.*peak_rss_kb=\([0-9]*\).*/\1/p' <<<"$line")"
    awk -v n="$n" -v w="$w" -v nw="${new_wall[$n]}" -v k="${k:-0}" 'BEGIN {
      printf "%-26s %10.2f %10.2f %7.1fx %10.0f\n", n, w, nw, w/nw, k/1024 }'
  done
fi
echo "load after: $(uptime | sed 's/.*load average://')"
