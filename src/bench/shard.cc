#include "bench/shard.h"

#include <cstdlib>

#include "core/strings.h"

namespace regrapht::bench {
namespace {

// An integer variable of the job array; InvalidArgument when missing or junk.
Result<int64_t> SlurmInt(const EnvLookup& env, const std::string& name) {
  std::optional<std::string> value = env(name);
  if (!value || Trim(*value).empty()) {
    return Status::InvalidArgument("--shard auto: " + name +
                                   " is not set: run inside a Slurm job array (sbatch --array=0-N, "
                                   "scripts/slurm/bench.sbatch) or pass --shard i/n");
  }
  std::optional<int64_t> n = ParseInt(Trim(*value));
  if (!n) return Status::InvalidArgument("--shard auto: " + name + "=\"" + *value + "\" is not an integer");
  return *n;
}

std::string Var(const std::string& name, int64_t value) { return name + "=" + std::to_string(value); }

}  // namespace

EnvLookup ProcessEnv() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* v = std::getenv(name.c_str());
    if (v == nullptr) return std::nullopt;
    return std::string(v);
  };
}

Result<Shard> ShardFromSlurm(const EnvLookup& env) {
  RG_ASSIGN_OR_RETURN(int64_t id, SlurmInt(env, "SLURM_ARRAY_TASK_ID"));
  RG_ASSIGN_OR_RETURN(int64_t count, SlurmInt(env, "SLURM_ARRAY_TASK_COUNT"));
  RG_ASSIGN_OR_RETURN(int64_t min, SlurmInt(env, "SLURM_ARRAY_TASK_MIN"));
  RG_ASSIGN_OR_RETURN(int64_t max, SlurmInt(env, "SLURM_ARRAY_TASK_MAX"));
  int64_t step = 1;
  if (std::optional<std::string> s = env("SLURM_ARRAY_TASK_STEP"); s && !Trim(*s).empty()) {
    RG_ASSIGN_OR_RETURN(step, SlurmInt(env, "SLURM_ARRAY_TASK_STEP"));
  }
  const std::string range = Var("SLURM_ARRAY_TASK_MIN", min) + ", " + Var("SLURM_ARRAY_TASK_MAX", max) + ", " +
                            Var("SLURM_ARRAY_TASK_STEP", step);
  if (count < 1) return Status::InvalidArgument("--shard auto: " + Var("SLURM_ARRAY_TASK_COUNT", count) + " is not positive");
  if (step < 1) return Status::InvalidArgument("--shard auto: " + Var("SLURM_ARRAY_TASK_STEP", step) + " is not positive");
  if (min > max) return Status::InvalidArgument("--shard auto: " + range + ": MIN is above MAX");
  if ((max - min) % step != 0 || (max - min) / step + 1 != count) {
    return Status::InvalidArgument("--shard auto: " + Var("SLURM_ARRAY_TASK_COUNT", count) + " does not match " +
                                   range + ": shards need an evenly spaced array such as --array=0-" +
                                   std::to_string(count - 1) + ", not a list of task ids");
  }
  if (id < min || id > max || (id - min) % step != 0) {
    return Status::InvalidArgument("--shard auto: " + Var("SLURM_ARRAY_TASK_ID", id) + " is not in the array " +
                                   range);
  }
  return Shard{static_cast<int>((id - min) / step), static_cast<int>(count)};
}

Result<Shard> ParseShard(const std::string& text, const EnvLookup& env) {
  if (text == "auto") return ShardFromSlurm(env);
  auto parts = Split(text, '/');
  auto i = parts.size() == 2 ? ParseInt(parts[0]) : std::nullopt;
  auto n = parts.size() == 2 ? ParseInt(parts[1]) : std::nullopt;
  if (!i || !n) return Status::InvalidArgument("--shard: expected i/n or auto, got \"" + text + "\"");
  if (*n < 1 || *i < 0 || *i >= *n) {
    return Status::InvalidArgument("--shard " + text + ": index must be in [0, count)");
  }
  return Shard{static_cast<int>(*i), static_cast<int>(*n)};
}

std::string ExpandShardPath(const std::string& path, const Shard& shard) {
  std::string out = ReplaceAll(path, "{shards}", std::to_string(shard.count));
  return ReplaceAll(out, "{shard}", std::to_string(shard.index));
}

}  // namespace regrapht::bench
