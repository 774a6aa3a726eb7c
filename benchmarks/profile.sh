#!/usr/bin/env bash
# profile.sh SCENARIO [OUT_DIR]
#
# Where a run's time goes: runs `nicsim run SCENARIO` under async-profiler (CPU samples, Java and
# native frames, every thread) and prints the split docs/performance.md ("Where the time goes")
# uses: event loop / JIT compiler / GC and VM / the rest, the event loop by event handled, and the
# hottest methods by self samples (dev.nicsim.benchmarks.ProfileSummary). Writes into OUT_DIR
# (default out/profile-<scenario name>): profile.collapsed (async-profiler's collapsed stacks, the
# input of flame-graph tools), summary.txt (the split) and run/ (the run's own outputs); the three are
# replaced if present, nothing else in OUT_DIR is touched.
#
# async-profiler is a tool, not a dependency of nicsim: the script uses ASYNC_PROFILER_LIB (a
# libasyncProfiler.so) when set, else fetches tools.profiler:async-profiler:$AP_VERSION (Maven
# Central, Linux x64 or arm64) into benchmarks/target/async-profiler once (network needed that
# one time). CPU samples use perf events where the kernel allows them (perf_event_paranoid <= 2
# for user-space frames) and fall back to timer signals otherwise; a VM without hardware counters
# gives no cache-miss profile (docs/performance.md).
# Environment: INTERVAL (sampling period, default 1ms), NICSIM_RUN_ARGS (more `nicsim run`
# arguments, word-split, e.g. "--partitions 4"), AP_VERSION (default 4.1), LOCK (default
# /tmp/nicsim-cpu.lock; the profiled run holds it, so other users' timings do not overlap it).
# Exit: 0 done, 2 bad arguments or missing input, 1 the profiler could not be had or the run failed.
set -euo pipefail

usage() { echo "usage: $0 SCENARIO [OUT_DIR]" >&2; exit 2; }
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ $# -ge 1 ] && [ $# -le 2 ] || usage
case "$1" in -h|--help) usage ;; esac
scenario="$1"
[ -f "$scenario" ] || { echo "profile.sh: scenario $scenario not found" >&2; exit 2; }
name="$(basename "$scenario")"; name="${name%.*}"
out="${2:-$root/out/profile-$name}"
[ ! -e "$out" ] || [ -d "$out" ] || { echo "profile.sh: OUT_DIR $out exists and is not a directory" >&2; exit 2; }
case "$out" in *,*) echo "profile.sh: OUT_DIR $out contains a comma (async-profiler's agent options are comma-separated)" >&2; exit 2 ;; esac
version="${AP_VERSION:-4.1}"
lock="${LOCK:-/tmp/nicsim-cpu.lock}"

lib="${ASYNC_PROFILER_LIB:-}"
if [ -z "$lib" ]; then
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) platform=linux-x64 ;;
    Linux-aarch64) platform=linux-arm64 ;;
    *) echo "profile.sh: async-profiler's Maven artifact is built for Linux x64 and arm64, not $(uname -s)-$(uname -m); set ASYNC_PROFILER_LIB" >&2; exit 1 ;;
  esac
  dir="$root/benchmarks/target/async-profiler/$version"
  lib="$dir/$platform/libasyncProfiler.so"
  if [ ! -f "$lib" ]; then
    echo "profile.sh: fetching async-profiler $version ($platform) into $dir" >&2
    mkdir -p "$dir"
    if ! (cd "$root" && mvn -B -q -Dstyle.color=never dependency:copy \
          "-Dartifact=tools.profiler:async-profiler:$version:jar:$platform" "-DoutputDirectory=$dir") >&2; then
      echo "profile.sh: could not fetch tools.profiler:async-profiler:$version:jar:$platform; set ASYNC_PROFILER_LIB to a libasyncProfiler.so" >&2
      exit 1
    fi
    (cd "$dir" && jar xf "async-profiler-$version-$platform.jar")
  fi
fi
[ -f "$lib" ] || { echo "profile.sh: $lib not found (ASYNC_PROFILER_LIB must name libasyncProfiler.so)" >&2; exit 2; }

jar="$root/benchmarks/target/benchmarks.jar"
if [ ! -f "$jar" ] || [ "$root/benchmarks/src/main/java/dev/nicsim/benchmarks/ProfileSummary.java" -nt "$jar" ]; then
  echo "profile.sh: building benchmarks/target/benchmarks.jar" >&2
  (cd "$root" && mvn -B -q -Dstyle.color=never -DskipTests package -pl benchmarks -am) >&2
fi

mkdir -p "$out"
rm -rf "$out/run" "$out/profile.collapsed"
run_args=(); read -r -a run_args <<<"${NICSIM_RUN_ARGS:-}"
agent="-agentpath:$lib=start,event=cpu,interval=${INTERVAL:-1ms},file=$out/profile.collapsed,collapsed"
echo "profile.sh: nicsim run ${run_args[*]+${run_args[*]}} $scenario (profiled)" >&2
NICSIM_JAVA_OPTS="${NICSIM_JAVA_OPTS:-} $agent" flock "$lock" "$root/nicsim" run --no-progress \
  ${run_args[@]+"${run_args[@]}"} --out "$out/run" "$scenario"
[ -s "$out/profile.collapsed" ] || { echo "profile.sh: async-profiler wrote no $out/profile.collapsed" >&2; exit 1; }
java -cp "$jar" dev.nicsim.benchmarks.ProfileSummary "$out/profile.collapsed" 25 | tee "$out/summary.txt"
echo "profile.sh: stacks in $out/profile.collapsed, split in $out/summary.txt" >&2
