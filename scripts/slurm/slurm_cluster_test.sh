#!/bin/sh
# scripts/slurm/bench.sbatch on a real single-node Slurm cluster, started here
# from Debian's packages (munge, slurmctld, slurmd) on localhost as the
# current user, with a minimal slurm.conf: proctrack/linuxproc, no cgroups,
# three stand-in GPUs (gres/gpu on /dev/null). The job array runs 3 shards of
# a 3-problem suite (--method reference --emulate --emulate-tests-only: no GPU
# needed), each into its own database; the databases are merged and the
# report must equal a single process's report of the same suite. The cluster
# is shut down at the end. Skipped (exit 77, with the reason) only where the
# Slurm commands are missing or the daemons cannot start.
# Usage: slurm_cluster_test.sh REGRAPHT_BINARY SOURCE_DIR
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$2

skip() { echo "SKIPPED: $*"; exit 77; }
for c in munged munge slurmctld slurmd sbatch sinfo squeue scontrol python3; do
  command -v "$c" >/dev/null 2>&1 || skip "$c not found (scripts/install-deps.sh installs munge and Slurm)"
done

# munged wants every folder on its socket's path searchable by all.
t=$(mktemp -d /tmp/rgslurm.XXXXXX)
chmod 755 "$t"
mkdir -p "$t/etc" "$t/run" "$t/log" "$t/spool/ctld" "$t/spool/d" "$t/dev" "$t/suite"
chmod 700 "$t/etc"
export SLURM_CONF="$t/etc/slurm.conf"
stop_cluster() {
  scontrol shutdown >/dev/null 2>&1
  for f in "$t/run/slurmctld.pid" "$t/run/slurmd.pid" "$t/run/munged.pid"; do
    [ -s "$f" ] || continue
    pid=$(cat "$f")
    i=0
    while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do
      [ $i -eq 10 ] && kill "$pid" 2>/dev/null
      i=$((i + 1))
      sleep 0.2
    done
    kill -9 "$pid" 2>/dev/null
  done
}
cleanup() {
  stop_cluster
  rm -rf "$t"
}
trap cleanup EXIT
show_logs() {
  for f in "$t"/log/*.log "$t"/*.out "$t"/*.txt; do
    [ -f "$f" ] && { echo "---- $f" >&2; tail -n 30 "$f" >&2; }
  done
}
fail() {
  echo "FAIL: $*" >&2
  show_logs
  exit 1
}
cannot_start() {
  show_logs
  skip "the Slurm daemons cannot start here: $*"
}

# ---- The cluster --------------------------------------------------------------
host=$(hostname -s)
user=$(id -un)
read -r ctld_port d_port <<PORTS
$(python3 -c 'import socket
ss = [socket.socket() for _ in range(2)]
for s in ss: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in ss])')
PORTS
dd if=/dev/urandom of="$t/etc/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$t/etc/munge.key"
for i in 0 1 2; do ln -s /dev/null "$t/dev/gpu$i"; done
cat >"$t/etc/slurm.conf" <<CONF
ClusterName=regrapht-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$t/run/munge.sock
StateSaveLocation=$t/spool/ctld
SlurmdSpoolDir=$t/spool/d
SlurmctldPidFile=$t/run/slurmctld.pid
SlurmdPidFile=$t/run/slurmd.pid
SlurmctldLogFile=$t/log/slurmctld.log
SlurmdLogFile=$t/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
ReturnToService=2
GresTypes=gpu
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=1000 Gres=gpu:3 State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:3
CONF
echo "NodeName=$host Name=gpu File=$t/dev/gpu[0-2]" >"$t/etc/gres.conf"

munged --force --socket="$t/run/munge.sock" --key-file="$t/etc/munge.key" --pid-file="$t/run/munged.pid" \
  --seed-file="$t/etc/munge.seed" --log-file="$t/log/munged.log" || cannot_start "munged exited $?"
munge -S "$t/run/munge.sock" -n | unmunge -S "$t/run/munge.sock" >/dev/null 2>&1 ||
  cannot_start "munge does not work"
slurmctld -f "$SLURM_CONF" || cannot_start "slurmctld exited $?"
slurmd -f "$SLURM_CONF" || cannot_start "slurmd exited $?"
i=0
until [ "$(sinfo -h -o %t 2>/dev/null)" = "idle" ]; do
  i=$((i + 1))
  [ $i -gt 100 ] && cannot_start "the node is not idle after 20 s: $(sinfo -h -o '%t %E' 2>&1)"
  sleep 0.2
done
echo "cluster up: $(sinfo -h -o '%P %t %N %G')"

# ---- The suite: three bundled problems ---------------------------------------
for p in saxpy sum_of_squares spmv_csr; do cp -r "$src/problems/$p" "$t/suite/$p"; done
cat >"$t/suite/suite.json" <<'JSON'
{"format": "regrapht-suite", "version": 1, "name": "slurm3"}
JSON
# Word-split on purpose where used.
flags="--method reference --emulate --emulate-tests-only --quiet --jobs 1"

# run_single CACHE / run_shards CACHE: the suite in one process, and as three
# shards through the array script (their tasks share one node-local cache);
# each sets $wall (seconds).
run_single() {
  rm -f "$t/single.sqlite"
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086
  REGRAPHT_CACHE_DIR="$1" "$bin" bench --suite "$t/suite" $flags --db "$t/single.sqlite" \
    >"$t/single.txt" 2>&1 || fail "the single-process bench exited $?"
  wall=$(python3 -c "print('%.1f' % ($(date +%s.%N) - $t0))")
}
run_shards() {
  rm -f "$t"/shard-*.sqlite "$t"/shard-*.out
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086
  job=$(REGRAPHT="$bin" REGRAPHT_CACHE_DIR="$1" sbatch --parsable --array=0-2 --cpus-per-task=1 \
    --chdir="$t" --output="$t/shard-%a.out" "$src/scripts/slurm/bench.sbatch" \
    --suite "$t/suite" $flags --db "$t/shard-{shard}.sqlite" 2>"$t/sbatch.txt") || fail "sbatch exited $?"
  # Poll (sbatch --wait polls every few seconds, which would be most of a warm run's time).
  i=0
  while :; do
    states=$(squeue -h -j "$job" -t all -o %T 2>/dev/null)
    [ -n "$states" ] && ! echo "$states" | grep -qE 'PENDING|CONFIGURING|RUNNING|COMPLETING' && break
    i=$((i + 1))
    [ $i -gt 3000 ] && fail "job $job still not done after 10 minutes: $states"
    sleep 0.2
  done
  wall=$(python3 -c "print('%.1f' % ($(date +%s.%N) - $t0))")
  [ "$(echo "$states" | sort -u)" = "COMPLETED" ] || fail "shards did not all complete: $(echo "$states" | tr "\n" " ")"
}

if [ -n "${REGRAPHT_SLURM_TEST_MEASURE:-}" ]; then
  # Measurement (docs/scale.md): both cold (own empty caches), then both warm.
  run_single "$t/cache-a"; cold1=$wall
  run_shards "$t/cache-b"; cold3=$wall
  run_single "$t/cache-a"; warm1=$wall
  run_shards "$t/cache-b"; warm3=$wall
  echo "wall time, cold caches: one process $cold1 s, 3 shards through Slurm $cold3 s"
  echo "wall time, warm caches: one process $warm1 s, 3 shards through Slurm $warm3 s"
else
  # CI: the shards build (concurrently, into one cache), the single run reuses it.
  run_shards "$t/cache"; shards=$wall
  run_single "$t/cache"; single=$wall
  echo "wall time: 3 shards through Slurm $shards s (cold cache), then one process $single s (warm)"
fi

for i in 0 1 2; do
  grep -q "task $i of 3" "$t/shard-$i.out" || fail "shard $i did not say which task it is"
  grep -q "slurm3 / reference: 1 samples (0 already done): 1 correct" "$t/shard-$i.out" || fail "shard $i"
  [ -f "$t/shard-$i.sqlite" ] || fail "shard $i wrote no database"
done
# A shard's own report names what the others hold.
"$bin" report --db "$t/shard-0.sqlite" >"$t/shard0-report.txt" || fail "report of shard 0"
grep -q "1 of 3 rows present (3 problems x 1 sample, expected from the plan); missing 2" "$t/shard0-report.txt" ||
  fail "shard 0's report does not name the missing rows"

"$bin" bench merge -o "$t/merged.sqlite" "$t"/shard-*.sqlite >"$t/merge.txt" 2>&1 || fail "bench merge"
for format in md json csv; do
  "$bin" report --db "$t/single.sqlite" --format $format >"$t/single.$format" || fail "report single"
  "$bin" report --db "$t/merged.sqlite" --format $format >"$t/merged.$format" || fail "report merged"
  cmp -s "$t/single.$format" "$t/merged.$format" || { diff "$t/single.$format" "$t/merged.$format" >&2;
    fail "the merged $format report differs from the single process's"; }
done
grep -q "all 3 rows present" "$t/merged.md" || fail "the merged report is not complete"
# The same comparison straight from the three shards' files.
"$bin" report --db "$t/shard-0.sqlite" --db "$t/shard-1.sqlite" --db "$t/shard-2.sqlite" >"$t/multi.md" ||
  fail "report --db x3"
cmp -s "$t/single.md" "$t/multi.md" || fail "report --db A --db B --db C differs from the single process's"
echo ok
