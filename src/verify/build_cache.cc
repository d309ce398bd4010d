#include "verify/build_cache.h"

#include "core/hash.h"
#include "core/json_util.h"
#include "core/log.h"
#include "core/strings.h"

namespace regrapht::verify {

BuildCache::BuildCache(CommandRunner* runner, fs::path root, double timeout_s, bool sandbox,
                       std::vector<fs::path> toolchain_dirs)
    : runner_(runner),
      root_(std::move(root)),
      timeout_s_(timeout_s),
      sandbox_(sandbox),
      toolchain_dirs_(std::move(toolchain_dirs)) {}

Result<BuildOutcome> BuildCache::Build(const BuildRequest& req) {
  Hasher h;
  h.Add("regrapht-build-v1").Add(req.key_extra).Add(req.output);
  for (const auto& a : req.argv) h.Add(a);
  for (const auto& [name, contents] : req.files) h.Add(name).Add(contents);
  BuildOutcome out;
  out.key = h.Hex();
  out.command = ShellJoin(req.argv);
  fs::path final_dir = root_ / out.key.substr(0, 2) / out.key;
  fs::path meta_path = final_dir / "meta.json";

  std::error_code ec;
  if (fs::exists(meta_path, ec)) {
    auto meta = ReadJsonFile(meta_path);
    if (meta.ok() && meta->is_object()) {
      out.ok = meta->value("ok", false);
      out.log = meta->value("log", "");
      out.failure = meta->value("failure", "");
      out.time_ms = meta->value("time_ms", 0.0);
      out.cached = true;
      if (out.ok) out.artifact = final_dir / req.output;
      if (!out.ok || fs::exists(out.artifact, ec)) {
        spdlog::info("build cache hit ({}, {}): {}", req.label, out.ok ? "ok" : "failed", out.command);
        return out;
      }
    }
    // A damaged entry: rebuild over it.
    RG_RETURN_IF_ERROR(RemoveAll(final_dir));
  }

  RG_RETURN_IF_ERROR(MakeDirs(root_ / "tmp"));
  RG_ASSIGN_OR_RETURN(fs::path work, MakeTempDir(req.label + "-", root_ / "tmp"));
  for (const auto& [name, contents] : req.files) {
    RG_RETURN_IF_ERROR(WriteFile(work / name, contents));
  }
  CommandSpec spec;
  spec.argv = req.argv;
  spec.cwd = work;
  spec.limits.wall_seconds = timeout_s_;
  spec.limits.memory_bytes = int64_t{8} << 30;
  spec.limits.max_processes = 256;
  spec.sandbox = sandbox_;
  spec.readable = toolchain_dirs_;
  spec.readable.insert(spec.readable.end(), req.inputs.begin(), req.inputs.end());
  spec.max_output_bytes = 64 * 1024;
  spdlog::info("compiling ({}): {}", req.label, out.command);
  auto run = runner_->Run(spec);
  if (!run.ok()) {
    (void)RemoveAll(work);
    return run.status().WithContext("running " + req.label + " build");
  }
  out.time_ms = run->wall_ms;
  out.log = run->stdout_text + run->stderr_text;
  out.ok = run->ok() && fs::exists(work / req.output, ec);
  if (!out.ok) out.failure = run->ok() ? "no output file" : run->Describe();
  if (run->timed_out) out.failure += " (the compile limit; raise it with --compile-timeout)";
  spdlog::info("compiled ({}) in {:.0f} ms: {}", req.label, out.time_ms, out.ok ? "ok" : out.failure);
  Json meta = {{"ok", out.ok},       {"log", out.log},   {"failure", out.failure},
               {"time_ms", out.time_ms}, {"command", out.command}, {"label", req.label}};
  RG_RETURN_IF_ERROR(WriteFile(work / "meta.json", DumpJson(meta)));
  // Timeouts are not cached: the machine may just have been busy.
  bool cacheable = !run->timed_out;
  RG_RETURN_IF_ERROR(MakeDirs(final_dir.parent_path()));
  if (cacheable) {
    fs::rename(work, final_dir, ec);
    if (ec) {
      // Someone else built the same thing meanwhile; theirs is as good.
      (void)RemoveAll(work);
      if (!fs::exists(meta_path)) return Status::IoError("build cache: cannot store " + final_dir.string());
    }
    if (out.ok) out.artifact = final_dir / req.output;
  } else {
    (void)RemoveAll(work);
  }
  return out;
}

}  // namespace regrapht::verify
