// Which part of a suite one process runs, and where it writes.
//
// Shard i of n takes every n-th problem starting at i (RunSuite). The shard
// comes from `--shard i/n` or, with `--shard auto`, from a Slurm job array:
//
//   sbatch --array=0-7 ...      SLURM_ARRAY_TASK_ID     3   -> shard 3 of 8
//                               SLURM_ARRAY_TASK_COUNT  8
//                               SLURM_ARRAY_TASK_MIN    0
//                               SLURM_ARRAY_TASK_MAX    7
//                               SLURM_ARRAY_TASK_STEP   1   (optional)
//
// An evenly spaced array (--array=1-15:2) maps to shards 0..n-1 as well; a
// list (--array=0,3,9) or a count that disagrees with MIN..MAX is refused,
// naming the variables, because shards would be skipped or run twice.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "regrapht/status.h"

namespace regrapht::bench {

struct Shard {
  int index = 0;
  int count = 1;
};

// Looks up an environment variable; nullopt when unset.
using EnvLookup = std::function<std::optional<std::string>(const std::string& name)>;

// The process environment (getenv).
EnvLookup ProcessEnv();

// Parses "i/n" (0 <= i < n) or "auto" (ShardFromSlurm). InvalidArgument,
// naming the flag or the variable, otherwise.
Result<Shard> ParseShard(const std::string& text, const EnvLookup& env);

// The shard of this task of a Slurm job array. InvalidArgument naming the
// variable that is missing, not an integer, or inconsistent with the others.
Result<Shard> ShardFromSlurm(const EnvLookup& env);

// `path` with "{shard}" replaced by the shard index and "{shards}" by the
// count, e.g. "results/shard-{shard}-of-{shards}.sqlite".
std::string ExpandShardPath(const std::string& path, const Shard& shard);

}  // namespace regrapht::bench
