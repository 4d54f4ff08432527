#!/usr/bin/env bash
# One recording list read by a Slurm job array: each task's SLURM_ARRAY_TASK_ID (0 to 7)
# picks its shard, and each writes its own part.
#   sbatch deploy/slurm-array.sh
#   traffic-light summarize results/part-*.jsonl      # when the array has finished
# Keep the array's size and the N of --shard the same. RECORDINGS (a file listing the
# recordings' folders, one a line), RESULTS and TRAFFIC_LIGHT may be set in the environment.
#SBATCH --job-name=traffic-light
#SBATCH --array=0-7
#SBATCH --cpus-per-task=2
#SBATCH --mem=4G
#SBATCH --output=traffic-light-%A_%a.log
set -euo pipefail
recordings="${RECORDINGS:-recordings.txt}"
results="${RESULTS:-results}"
mkdir -p "$results"
"${TRAFFIC_LIGHT:-traffic-light}" sequence --format jsonl --jobs "${SLURM_CPUS_PER_TASK:-2}" \
  --shard "${SLURM_ARRAY_TASK_ID}/8" \
  --files-from "$recordings" \
  -o "$results/part-${SLURM_ARRAY_TASK_ID}.jsonl"
