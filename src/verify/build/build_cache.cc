#include "verify/build/build_cache.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "core/hash.h"
#include "core/json_util.h"
#include "core/log.h"
#include "core/strings.h"

namespace regrapht::verify {
namespace {

// A failed compile whose cause is the machine, not the code: said as such,
// never cached (a later run on a healthy machine must compile the same code
// again). `broken`: the machine cannot compile anything now (a full disk, an
// unwritable TMPDIR): the build is an error, not a verdict on the candidate.
struct MachineCause {
  std::string why;
  bool broken = false;
};

std::optional<MachineCause> MachineCauseOf(const CommandResult& run, const std::string& log) {
  if (run.timed_out) return MachineCause{"the compile limit ran out (the machine may be busy)", false};
  if (run.cancelled) return MachineCause{"the compile was cancelled", false};
  if (run.term_signal != 0) {
    return MachineCause{"the compiler was " + run.Describe() + " (memory limit, OOM killer or a stop)", false};
  }
  struct Pattern {
    const char* text;
    const char* why;
    bool broken;
  };
  static const Pattern kPatterns[] = {
      {"No space left on device", "the disk is full (No space left on device)", true},
      {"Disk quota exceeded", "the disk quota is used up", true},
      {"Read-only file system", "a folder the compiler writes is on a read-only file system", true},
      {"Could not open output file", "the compiler cannot write its temporary files (is TMPDIR writable?)", true},
      {"Could not open temporary", "the compiler cannot write its temporary files (is TMPDIR writable?)", true},
      {"Cannot create temporary file", "the compiler cannot write its temporary files (is TMPDIR writable?)", true},
      {"cannot create temporary file", "the compiler cannot write its temporary files (is TMPDIR writable?)", true},
      {"Resource temporarily unavailable", "the machine could not start a process (fork failed)", true},
      {"Too many open files", "the process ran out of file descriptors", true},
      {"virtual memory exhausted", "the compiler ran out of memory", false},
      {"Cannot allocate memory", "the compiler ran out of memory", false},
      {"out of memory allocating", "the compiler ran out of memory", false},
  };
  for (const Pattern& p : kPatterns) {
    if (log.find(p.text) != std::string::npos) return MachineCause{p.why, p.broken};
  }
  return std::nullopt;
}

// Whether 64 KiB can be written in `dir` now: a compiler's message alone
// (a candidate can print any text with #error) never calls the machine broken.
std::optional<std::string> WriteProbe(const fs::path& dir) {
  const fs::path probe = dir / (".regrapht-probe-" + std::to_string(::getpid()));
  const std::string block(64 * 1024, 'x');
  Status s = WriteFile(probe, block);
  std::error_code ec;
  fs::remove(probe, ec);
  if (s.ok()) return std::nullopt;
  return dir.string() + " cannot be written (" + s.message() + ")";
}

// The cache key of `req`: everything the compile reads that the caller names.
std::string BuildKey(const BuildRequest& req, bool sandbox) {
  Hasher h;
  h.Add("regrapht-build-v1").Add(req.key_extra).Add(req.output);
  for (const auto& a : req.argv) h.Add(a);
  for (const auto& [name, contents] : req.files) h.Add(name).Add(contents);
  // Outside the sandbox a compile can read what the sandbox hides (an
  // #include of a host file): the two are different builds.
  if (!sandbox) h.Add("unsandboxed");
  return h.Hex();
}

// Fills `out` from the cache entry in `final_dir` and answers true when it
// holds a usable build; a damaged entry is removed (false: build again).
Result<bool> LoadCachedBuild(const fs::path& final_dir, const BuildRequest& req, BuildOutcome* out) {
  fs::path meta_path = final_dir / "meta.json";
  std::error_code ec;
  if (!fs::exists(meta_path, ec)) return false;
  auto meta = ReadJsonFile(meta_path);
  if (meta.ok() && meta->is_object()) {
    out->ok = meta->value("ok", false);
    out->log = meta->value("log", "");
    out->failure = meta->value("failure", "");
    out->time_ms = meta->value("time_ms", 0.0);
    out->cached = true;
    if (out->ok) out->artifact = final_dir / req.output;
    if (!out->ok || fs::exists(out->artifact, ec)) {
      spdlog::info("build cache hit ({}, {}): {}", req.label, out->ok ? "ok" : "failed", out->command);
      return true;
    }
  }
  // A damaged entry: rebuild over it.
  RG_RETURN_IF_ERROR(RemoveAll(final_dir));
  return false;
}

// The compile of `req` in folder `work`, with the cache's limits.
CommandSpec CompileCommand(const BuildRequest& req, const fs::path& work, double timeout_s, bool sandbox,
                           const std::vector<fs::path>& toolchain_dirs) {
  CommandSpec spec;
  spec.argv = req.argv;
  spec.cwd = work;
  spec.limits.wall_seconds = timeout_s;
  spec.limits.memory_bytes = int64_t{8} << 30;
  spec.limits.max_processes = 256;
  spec.sandbox = sandbox;
  if (sandbox) spec.env.push_back("TMPDIR=/tmp");  // the sandbox's tmpfs, whatever the caller's TMPDIR is
  spec.readable = toolchain_dirs;
  spec.readable.insert(spec.readable.end(), req.inputs.begin(), req.inputs.end());
  spec.max_output_bytes = 64 * 1024;
  return spec;
}

// A compiler message that calls the machine broken is confirmed by the
// machine itself (a write probe in `tmp_root`, and outside the sandbox in
// TMPDIR), or the cause is only not cached (`broken` cleared).
void ConfirmBrokenMachine(const fs::path& tmp_root, bool sandbox, MachineCause* machine) {
  std::optional<std::string> probe = WriteProbe(tmp_root);
  const char* tmpdir = std::getenv("TMPDIR");
  if (!probe && !sandbox) probe = WriteProbe(tmpdir && *tmpdir ? fs::path(tmpdir) : fs::path("/tmp"));
  if (probe) {
    machine->why += ": " + *probe;
  } else {
    machine->broken = false;
  }
}

// Moves the finished build in `work` to `final_dir` when `cacheable` (a
// concurrent identical build that got there first is as good), else removes
// it; sets out->artifact for a stored successful build.
Status StoreBuild(const fs::path& work, const fs::path& final_dir, bool cacheable, const BuildRequest& req,
                  BuildOutcome* out) {
  std::error_code ec;
  RG_RETURN_IF_ERROR(MakeDirs(final_dir.parent_path()));
  if (cacheable) {
    fs::rename(work, final_dir, ec);
    if (ec) {
      // Someone else built the same thing meanwhile; theirs is as good.
      (void)RemoveAll(work);
      if (!fs::exists(final_dir / "meta.json")) return Status::IoError("build cache: cannot store " + final_dir.string());
    }
    if (out->ok) out->artifact = final_dir / req.output;
  } else {
    (void)RemoveAll(work);
  }
  return Status::Ok();
}

}  // namespace

Status CheckTempDir() {
  const char* tmp = std::getenv("TMPDIR");
  if (tmp == nullptr || *tmp == '\0') return Status::Ok();
  std::error_code ec;
  if (!fs::is_directory(tmp, ec)) {
    return Status::FailedPrecondition(std::string("TMPDIR=") + tmp +
                                      ": not a folder; the compilers write their temporary files there (unset "
                                      "TMPDIR or point it at a writable folder)");
  }
  if (::access(tmp, W_OK | X_OK) != 0) {
    return Status::FailedPrecondition(std::string("TMPDIR=") + tmp + ": not writable (" + std::strerror(errno) +
                                      "); the compilers write their temporary files there (unset TMPDIR or "
                                      "point it at a writable folder)");
  }
  return Status::Ok();
}

BuildCache::BuildCache(CommandRunner* runner, fs::path root, double timeout_s, bool sandbox,
                       std::vector<fs::path> toolchain_dirs)
    : runner_(runner),
      root_(std::move(root)),
      timeout_s_(timeout_s),
      sandbox_(sandbox),
      toolchain_dirs_(std::move(toolchain_dirs)) {}

Result<BuildOutcome> BuildCache::Build(const BuildRequest& req) {
  BuildOutcome out;
  out.key = BuildKey(req, sandbox_);
  out.command = ShellJoin(req.argv);
  fs::path final_dir = root_ / out.key.substr(0, 2) / out.key;
  RG_ASSIGN_OR_RETURN(bool hit, LoadCachedBuild(final_dir, req, &out));
  if (hit) return out;

  // The sandbox has its own /tmp; outside it the compilers use TMPDIR.
  if (!sandbox_) RG_RETURN_IF_ERROR(CheckTempDir().WithContext("compiling (" + req.label + ")"));
  RG_RETURN_IF_ERROR(MakeDirs(root_ / "tmp"));
  RG_ASSIGN_OR_RETURN(fs::path work, MakeTempDir(req.label + "-", root_ / "tmp"));
  for (const auto& [name, contents] : req.files) {
    RG_RETURN_IF_ERROR(WriteFile(work / name, contents));
  }
  CommandSpec spec = CompileCommand(req, work, timeout_s_, sandbox_, toolchain_dirs_);
  spdlog::info("compiling ({}): {}", req.label, out.command);
  auto run = runner_->Run(spec);
  if (!run.ok()) {
    (void)RemoveAll(work);
    return run.status().WithContext("running " + req.label + " build");
  }
  std::error_code ec;
  out.time_ms = run->wall_ms;
  out.log = run->stdout_text + run->stderr_text;
  out.ok = run->ok() && fs::exists(work / req.output, ec);
  if (!out.ok) out.failure = run->ok() ? "no output file" : run->Describe();
  if (run->timed_out) out.failure += " (the compile limit; raise it with --compile-timeout)";
  std::optional<MachineCause> machine = out.ok ? std::nullopt : MachineCauseOf(*run, out.log);
  if (machine && machine->broken) ConfirmBrokenMachine(root_ / "tmp", sandbox_, &*machine);
  if (machine && machine->broken) {
    (void)RemoveAll(work);
    return Status::FailedPrecondition("compiling (" + req.label + "): " + machine->why +
                                      ": the machine, not the code, failed the compile; nothing was cached "
                                      "(compiler: " + TruncateMiddle(Trim(out.log), 400) + ")");
  }
  if (machine && !run->timed_out) out.failure += " (" + machine->why + "; not cached)";
  out.machine = machine.has_value();
  spdlog::info("compiled ({}) in {:.0f} ms: {}", req.label, out.time_ms, out.ok ? "ok" : out.failure);
  Json meta = {{"ok", out.ok},       {"log", out.log},   {"failure", out.failure},
               {"time_ms", out.time_ms}, {"command", out.command}, {"label", req.label}};
  RG_RETURN_IF_ERROR(WriteFile(work / "meta.json", DumpJson(meta)));
  // Failures the machine caused (a timeout, a kill, memory) are not cached:
  // the same code may compile on the next run.
  RG_RETURN_IF_ERROR(StoreBuild(work, final_dir, /*cacheable=*/!machine, req, &out));
  return out;
}

}  // namespace regrapht::verify
