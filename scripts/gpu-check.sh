#!/usr/bin/env bash
# GPU check on a machine with an NVIDIA driver but no JDK (how h200x1.txt in
# noded/src/test/resources/nvml/ and the results in docs/nodes.md were obtained):
# NVML discovery through JNA, then a one-node cluster with AutoDetect=nvml and jobs that ask
# for the GPU. Prepare here, in the repository root (the bundle stays under 64 MiB):
#   J=/usr/lib/jvm/temurin-25-jdk-amd64/bin; mkdir -p .devjre && ./mvnw -q -DskipTests package
#   $J/jlink --add-modules java.base,java.logging,java.management,java.naming,java.sql,java.xml,\
#jdk.httpserver,jdk.unsupported,java.net.http,java.security.jgss,jdk.net,java.instrument,jdk.jfr,\
#java.scripting,java.compiler,jdk.management,jdk.crypto.ec,jdk.zipfs,java.transaction.xa,\
#jdk.security.auth --compress zip-9 --strip-debug --no-header-files --no-man-pages --output /tmp/jre
#   tar -C /tmp -cJf .devjre/jre.tar.xz jre; cp -r packaging/target/classes .devjre/classes
#   mkdir .devjre/lib; cp packaging/target/lib/*.jar .devjre/lib/   # the dbd's jars may stay behind
# then, on the GPU machine, in a copy of the repository with .devjre: OUT=DIR scripts/gpu-check.sh
set -u
exec > >(tee "$OUT/check.log") 2>&1
R=$PWD
echo "== host"; uname -a; nproc; free -g | head -2
echo "== nvidia-smi"; nvidia-smi -L; nvidia-smi --query-gpu=index,name,uuid,pci.bus_id,driver_version --format=csv
nvidia-smi topo -m 2>&1 | head -8
ls -la /dev/nvidia* 2>&1 | head; ldconfig -p | grep -i nvidia-ml
mkdir -p /tmp/j && tar -C /tmp/j -xJf .devjre/jre.tar.xz || exit 1
export JAVA_HOME=/tmp/j/jre
mkdir -p packaging/target && rm -rf packaging/target/lib packaging/target/classes
mv .devjre/lib packaging/target/lib && mv .devjre/classes packaging/target/classes
touch packaging/target/lib/.built
echo "== nvml-dump"; bin/sluice-noded --nvml-dump | tee "$OUT/h200-nvml.txt"; rc=${PIPESTATUS[0]}; echo "rc=$rc"
if [ "$rc" != 0 ]; then
  lib=$(find / -xdev -name 'libnvidia-ml.so.1' 2>/dev/null | head -1); echo "found: $lib"
  if [ -n "$lib" ]; then export LD_LIBRARY_PATH=$(dirname "$lib")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}; bin/sluice-noded --nvml-dump | tee "$OUT/h200-nvml.txt"; echo "rc=${PIPESTATUS[0]}"; fi
fi
B=/tmp/gpuc; mkdir -p $B/src
ncpu=$(( $(nproc) < 8 ? $(nproc) : 8 ))
cat > $B/src/slurm.conf <<C
ClusterName=gpubox
StateSaveLocation=$B/state
SlurmdSpoolDir=$B/spool/%n
SlurmctldHost=localhost(127.0.0.1)
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
GresTypes=gpu
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
NodeName=g1 NodeHostname=localhost NodeAddr=127.0.0.1 CPUs=$ncpu RealMemory=4000 Gres=gpu:h200:1 State=UNKNOWN
PartitionName=gpu Nodes=g1 Default=YES MaxTime=60 State=UP
C
printf 'AutoDetect=nvml\n' > $B/src/gres.conf
./sluice up --slurm-conf $B/src/slurm.conf --gres-conf $B/src/gres.conf --state-dir $B > $B/up.out 2>&1 &
up=$!
for _ in $(seq 1 150); do grep -q "Sluice is up" $B/up.out 2>/dev/null && break; kill -0 $up 2>/dev/null || break; sleep 1; done
cat $B/up.out | tail -20
source $B/sluice.env
echo "== sinfo"; sinfo -N -o "%N %G %T %E"
echo "== scontrol show node"; scontrol show node g1
echo "== srun gpu"; timeout 60 srun --gres=gpu:h200:1 -n1 bash -c 'env | grep -E "^(CUDA|GPU|SLURM_JOB_GPUS|SLURM_STEP_GPUS|SLURM_GPUS)" | sort; nvidia-smi -L'
echo "rc=$?"
echo "== srun no gpu"; timeout 60 srun -n1 bash -c 'echo "CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES-unset}"'
echo "== sbatch gpus"; cd /tmp; timeout 60 sbatch -W --gpus=1 -o /tmp/gj.out --wrap 'nvidia-smi --query-gpu=name,uuid --format=csv,noheader; echo CVD=$CUDA_VISIBLE_DEVICES'; echo "rc=$?"; cat /tmp/gj.out
echo "== too many"; timeout 30 sbatch --gres=gpu:2 --wrap true; echo "rc=$?"
cd $R
echo "== noded log (gres)"; grep -ih -E "nvml|gres|autodetect" $B/log/*.log 2>/dev/null | head -30
ls $B $B/log 2>/dev/null
cp $B/log/*.log "$OUT/" 2>/dev/null
kill $up 2>/dev/null; pkill -f dev.sluice; true
