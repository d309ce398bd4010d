#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <random>
#include <set>
#include <thread>

#include "core/fs.h"
#include "core/hash.h"
#include "core/json_util.h"
#include "core/log.h"
#include "core/parallel.h"
#include "core/sandbox.h"
#include "core/strings.h"
#include "core/subprocess.h"
#include "regrapht/verify.h"
#include "verify/build/build_cache.h"
#include "verify/judge/compare.h"
#include "verify/build/batch_compile.h"
#include "verify/build/driver_gen.h"
#include "verify/spec/edge_cases.h"
#include "verify/build/emulate.h"
#include "verify/gpu_lock.h"
#include "verify/timing_cpus.h"
#include "verify/judge/judge.h"
#include "verify/build/kernel_form.h"
#include "verify/build/object_check.h"
#include "verify/build/pass_check.h"
#include "verify/judge/records.h"
#include "verify/runner_options.h"
#include "verify/build/static_check.h"
#include "verify/spec/timing_sizes.h"
#include "verify/build/toolchain.h"
#include "verify/build/toolchain_folders.h"

namespace regrapht {

using verify::ArrayRecord;
using verify::BuildCache;
using verify::BuildOutcome;
using verify::BuildRequest;
using verify::DriverRecords;

std::string_view VerdictName(Verdict v) {
  switch (v) {
    case Verdict::kCorrect: return "correct";
    case Verdict::kCompiledOnly: return "compiled_only";
    case Verdict::kStaticReject: return "static_reject";
    case Verdict::kCompileError: return "compile_error";
    case Verdict::kRuntimeError: return "runtime_error";
    case Verdict::kTimeout: return "timeout";
    case Verdict::kWrongAnswer: return "wrong_answer";
    case Verdict::kNondeterministic: return "nondeterministic";
    case Verdict::kImplausibleSpeed: return "implausible_speed";
    case Verdict::kRace: return "race";
    case Verdict::kHostCompute: return "host_compute";
    case Verdict::kNotEmulated: return "not_emulated";
  }
  return "?";
}

std::optional<Verdict> ParseVerdict(std::string_view name) {
  for (Verdict v : {Verdict::kCorrect, Verdict::kCompiledOnly, Verdict::kStaticReject,
                    Verdict::kCompileError, Verdict::kRuntimeError, Verdict::kTimeout,
                    Verdict::kWrongAnswer, Verdict::kNondeterministic, Verdict::kImplausibleSpeed,
                    Verdict::kRace, Verdict::kHostCompute, Verdict::kNotEmulated}) {
    if (VerdictName(v) == name) return v;
  }
  return std::nullopt;
}

Timing Summarize(std::vector<double> s) {
  Timing t;
  if (s.empty()) return t;
  t.samples_ms = s;
  std::sort(s.begin(), s.end());
  auto q = [&](double f) {
    double pos = f * static_cast<double>(s.size() - 1);
    size_t lo = static_cast<size_t>(std::floor(pos));
    size_t hi = std::min(lo + 1, s.size() - 1);
    return s[lo] + (s[hi] - s[lo]) * (pos - static_cast<double>(lo));
  };
  t.reps = static_cast<int>(s.size());
  t.median_ms = q(0.5);
  t.p25_ms = q(0.25);
  t.p75_ms = q(0.75);
  t.min_ms = s.front();
  t.max_ms = s.back();
  t.mean_ms = std::accumulate(s.begin(), s.end(), 0.0) / static_cast<double>(s.size());
  double var = 0;
  for (double x : s) var += (x - t.mean_ms) * (x - t.mean_ms);
  t.stddev_ms = s.size() > 1 ? std::sqrt(var / static_cast<double>(s.size() - 1)) : 0;
  return t;
}

std::string EvidenceLevel(const VerifyResult& r) {
  if (Unverified(r.verdict)) return "compiled-only";
  if (r.emulated || ((r.verdict == Verdict::kRace || r.verdict == Verdict::kHostCompute) && r.env.gpu_name.empty())) {
    return "emulated";
  }
  std::string base;
  if (r.verdict == Verdict::kCorrect && r.candidate_timing) base = "gpu-timed";
  else if (r.env.gpu_name.empty()) return "compiled-only";
  else base = "gpu-untimed";
  if (r.verdict != Verdict::kCorrect) return base;
  for (const char* c : {"emulated", "sanitized"}) {
    if (std::find(r.cross_checks.begin(), r.cross_checks.end(), c) != r.cross_checks.end()) base += std::string("+") + c;
  }
  return base;
}

double Reward(const VerifyResult& r) {
  if (r.verdict != Verdict::kCorrect) return -1.0;
  if (!r.candidate_timing && r.speedup == 0.0) return 1.0;  // correct, speed not measured
  if (r.speedup < 1.0) return r.speedup - 1.0;
  return r.speedup;
}

namespace {

constexpr const char* kVersion = "0.1.0";

// The reference-output cache keeps every problem's outputs, timing sizes
// included (hundreds of MB for big problems). Past a size limit
// ($REGRAPHT_REF_CACHE_GB, default 8 GB; 0: no limit) the least recently
// used entries are removed (reads refresh an entry's time). Best effort: a
// concurrent reader of a removed entry simply recomputes it.
void PruneReferenceCache(const fs::path& ref_dir, const fs::path& keep) {
  double gb = 8;
  if (const char* e = std::getenv("REGRAPHT_REF_CACHE_GB")) gb = std::atof(e);
  if (gb <= 0) return;
  const auto limit = static_cast<uintmax_t>(gb * 1024 * 1024 * 1024);
  struct Entry {
    fs::file_time_type time;
    uintmax_t size;
    fs::path dir;
  };
  std::vector<Entry> entries;
  uintmax_t total = 0;
  std::error_code ec;
  for (const auto& d : fs::directory_iterator(ref_dir, ec)) {
    fs::path f = d.path() / "records.bin";
    std::error_code e1, e2;
    uintmax_t size = fs::file_size(f, e1);
    auto time = fs::last_write_time(f, e2);
    if (e1 || e2) continue;
    total += size;
    entries.push_back({time, size, d.path()});
  }
  if (total <= limit) return;
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.time < b.time; });
  for (const auto& en : entries) {
    if (total <= limit) break;
    if (en.dir == keep) continue;
    std::error_code rm;
    fs::remove_all(en.dir, rm);
    if (!rm) total -= en.size;
  }
}

// The process environment, for the GPU lock's key and folder.
std::optional<std::string> GetEnv(const std::string& name) {
  const char* v = std::getenv(name.c_str());
  return v ? std::optional<std::string>(v) : std::nullopt;
}

std::string HostName() {
  char buf[256] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0) return "localhost";
  return buf;
}

// Copies a built program into a run folder. Unlike fs::copy_file, the new
// file is opened close-on-exec, so that children other threads fork
// meanwhile do not keep it open for writing (which makes exec fail with
// ETXTBSY for as long as they live).
Status CopyExecutable(const fs::path& from, const fs::path& to) {
  auto fail = [&](const char* what) {
    return Status::IoError("cannot copy " + from.string() + " into the run folder (" + what +
                           "): " + std::strerror(errno));
  };
  int in = ::open(from.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) return fail("open");
  int out = ::open(to.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
  if (out < 0) {
    Status st = fail("create");
    ::close(in);
    return st;
  }
  char buf[1 << 16];
  Status st;
  while (st.ok()) {
    ssize_t n = ::read(in, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) st = fail("read");
    if (n <= 0) break;
    for (ssize_t done = 0; done < n && st.ok();) {
      ssize_t w = ::write(out, buf + done, static_cast<size_t>(n - done));
      if (w < 0 && errno == EINTR) continue;
      if (w < 0) st = fail("write");
      else done += w;
    }
  }
  ::close(in);
  if (::close(out) != 0 && st.ok()) st = fail("close");
  if (st.ok() && ::chmod(to.c_str(), 0755) != 0) st = fail("chmod");
  return st;
}

struct RunOutput {
  CommandResult process;
  std::optional<DriverRecords> records;
  std::string records_error;  // set when the records could not be parsed
};

using verify::FirstError;

// Whose program a driver run executes. The user's reference is trusted: it
// runs unsandboxed from the cache's runs folder. A candidate is not: it runs
// in the sandbox from a fresh folder holding only a copy of it and the plan,
// as the unprivileged sandbox user where the harness is root (docs/trust.md).
enum class RunTrust { kTrustedReference, kUntrustedCandidate };

}  // namespace

// The verifier's one implementation, in parts (each marked "// ---- "):
// - set-up: the options, the toolchain (detected once, Init), its folders
//   in the sandbox and the build cache;
// - builds: the driver, the reference, the candidate (lint, compile, object
//   checks, link; the emulated build; the kernel form's adapter), through
//   build/;
// - runs: driver processes (RunDriver: the reference trusted, a candidate
//   in the sandbox) and the reference's records, checked and cached;
// - judging: the environment record, the timing locks, Verify (what a run
//   produced goes to judge/, which decides the verdict);
// - one verdict: the emulator's and compute-sanitizer's cross-checks of a
//   GPU verdict;
// - edge cases: those the reference answers, memoised per problem;
// - the public entry points' bodies (CheckReference, Prepare,
//   CompileOnlyMany).
class Verifier::Impl {
 public:
  Impl(const VerifyOptions& o, CommandRunner* runner) : o_(o), runner_(runner) {
    if (o_.emulated()) o_.timing = false;  // the emulator says nothing about speed
    cache_ = o.cache_dir.empty() ? CacheDir() : fs::path(o.cache_dir);
    if (o_.timing) PinTimedPhases();
  }

  // A verifier that times runs its timed phases on a core of their own and
  // everything else on the others (verify/timing_cpus.h).
  void PinTimedPhases() {
    auto plan = verify::PlanTimingCpusHere();
    if (!plan.ok()) {
      init_status_ = plan.status();
      return;
    }
    if (!*plan) return;
    timing_cpus_ = **plan;
    pinning_runner_ = verify::NewPinningRunner(runner_, **plan);
    runner_ = pinning_runner_.get();
  }

  Status Init() {
    std::call_once(init_once_, [&] {
      auto tc = verify::DetectToolchain(runner_);
      if (!tc.ok()) {
        init_status_ = tc.status();
        return;
      }
      tc_ = *tc;
      bool sandbox_builds = o_.sandbox != VerifyOptions::Sandbox::kNone;
      // Wherever the toolchain lives (compilers outside /usr, wrapper
      // scripts, symlink chains): its folders, read-only, in the sandbox.
      folders_ = verify::FindToolchainFolders(tc_, runner_, {cache_});
      builds_ = std::make_unique<BuildCache>(runner_, cache_ / "build", o_.compile_timeout_s,
                                             sandbox_builds, folders_.build);
      host_cpu_ = verify::HostCpuModel();
      machine_ = verify::HostMachineKey();
    });
    return init_status_;
  }

  // ---- builds ----------------------------------------------------------------

  std::string ToolKey() const { return tc_.cxx_version + "|" + tc_.nvcc_version; }

  // `kernel_clock`: the drop-in form's GPU driver with CUPTI's kernel clock.
  std::vector<std::string> DriverFlags(bool cuda, bool kernel_clock = false) const {
    std::vector<std::string> f = {tc_.cxx.string(), "-std=c++17", "-O2", "-ffp-contract=off",
                                  "-fno-fast-math", "-w"};
    if (cuda) {
      f.push_back("-DRG_DRIVER_CUDA");
      f.push_back("-I" + (tc_.cuda_root / "include").string());
    }
    if (cuda && kernel_clock) {
      f.push_back("-DRG_DRIVER_CUPTI");
      f.push_back("-I" + tc_.cupti_include.string());
    }
    return f;
  }

  // The drop-in form's GPU runs measure kernel-only time with CUPTI where the
  // toolkit has it (docs/bench.md); elsewhere the figure is absent.
  bool KernelClock(const ProblemSpec& spec) const {
    return tc_.has_cupti() && !KernelForm(spec) && !o_.cpu_candidate() && !o_.emulated();
  }

  bool KernelForm(const ProblemSpec& spec) const { return o_.kernel_form && spec.kernel.has_value(); }

  // `kernel_form`: the candidate's driver in the kernel form (the reference
  // always runs through the drop-in driver). `check_only`: the device-only
  // compile gate links nothing, so the driver is only checked to compile
  // (-fsyntax-only: the same front-end errors, no object, about a third of
  // the CPU time); the artifact is its dependency list.
  Result<BuildOutcome> BuildDriver(const ProblemSpec& spec, bool cuda, bool kernel_form = false,
                                   bool check_only = false) {
    RG_ASSIGN_OR_RETURN(std::string src, verify::GenerateDriver(spec, kernel_form));
    const std::vector<std::string> flags = DriverFlags(cuda, cuda && !kernel_form && KernelClock(spec));
    RG_ASSIGN_OR_RETURN(BuildOutcome pch, BuildPch("driver-pch", {{"rg_driver.h", std::string(verify::DriverRuntimeHeader())}},
                                                   "rg_driver.h", flags));
    BuildRequest req;
    req.label = std::string(cuda ? "driver-gpu" : "driver-cpu") + (check_only ? "-check" : "");
    req.files = {{"driver.cc", src}};
    req.argv = flags;
    UsePch(pch, {{"rg_driver.h", std::string(verify::DriverRuntimeHeader())}}, &req);
    if (check_only) {
      req.argv.insert(req.argv.end(), {"-fsyntax-only", "-MMD", "-MF", "driver.d", "driver.cc"});
      req.output = "driver.d";
    } else {
      req.argv.insert(req.argv.end(), {"-c", "driver.cc", "-o", "driver.o"});
      req.output = "driver.o";
    }
    req.key_extra = ToolKey();
    RG_ASSIGN_OR_RETURN(BuildOutcome drv, builds_->Build(req));
    if (check_only || !drv.ok) return drv;
    return LinkDriverRuntime(drv, flags, std::string(cuda ? "gpu" : "cpu"));
  }

  // `driver` (a generated driver's object) and the driver runtime compiled
  // with the same `flags` (once per toolchain and flags: the runtime does
  // not depend on the problem), joined into one relocatable object, so that
  // every link step that takes a driver object takes the runtime with it.
  // The runtime's definitions are strong: a candidate defining one of them
  // fails to link (the object checks refuse it first).
  Result<BuildOutcome> LinkDriverRuntime(const BuildOutcome& driver, const std::vector<std::string>& flags,
                                         const std::string& kind) {
    BuildRequest rt;
    rt.label = "driver-runtime-" + kind;
    rt.files = {{"rg_driver.h", std::string(verify::DriverRuntimeHeader())},
                {"rg_driver_rt.cc", std::string(verify::DriverRuntimeSource())}};
    rt.argv = flags;
    rt.argv.insert(rt.argv.end(), {"-c", "rg_driver_rt.cc", "-o", "rg_driver_rt.o"});
    rt.output = "rg_driver_rt.o";
    rt.key_extra = ToolKey();
    RG_ASSIGN_OR_RETURN(BuildOutcome ro, builds_->Build(rt));
    if (!ro.ok) return ro;
    BuildRequest join;
    join.label = "driver-join-" + kind;
    join.argv = {tc_.cxx.string(), "-r", "-nostdlib", driver.artifact.string(), ro.artifact.string(), "-o",
                 "driver_all.o"};
    join.inputs = {driver.artifact, ro.artifact};
    join.output = "driver_all.o";
    join.key_extra = ToolKey();
    RG_ASSIGN_OR_RETURN(BuildOutcome joined, builds_->Build(join));
    joined.time_ms += driver.time_ms;
    return joined;
  }

  // A generated driver that does not compile is regrapht's bug, unless the
  // machine failed the compile (the limit, a kill, memory): then it says so.
  static Status DriverBuildError(const std::string& what, const BuildOutcome& b) {
    if (b.machine) return Status::FailedPrecondition("compiling the " + what + " failed: " + b.failure);
    return Status::Internal(what + " does not compile:\n" + b.log);
  }

  Result<BuildOutcome> BuildReferenceExe(const Problem& p) {
    RG_ASSIGN_OR_RETURN(BuildOutcome drv, BuildDriver(p.spec, false));
    if (!drv.ok) return DriverBuildError("generated driver for " + p.spec.name, drv);
    BuildRequest obj;
    obj.label = "reference";
    obj.files = {{"reference.cpp", p.reference_source}};
    // A user's file may carry its own main(): rename it out of the driver's way.
    obj.argv = {tc_.cxx.string(), "-std=c++17", "-Dmain=regrapht_reference_main_unused"};
    obj.argv.insert(obj.argv.end(), o_.reference_flags.begin(), o_.reference_flags.end());
    obj.argv.insert(obj.argv.end(), {"-c", "reference.cpp", "-o", "reference.o"});
    obj.output = "reference.o";
    obj.key_extra = ToolKey();
    RG_ASSIGN_OR_RETURN(BuildOutcome ro, builds_->Build(obj));
    if (!ro.ok) {
      if (ro.machine) {
        return Status::FailedPrecondition((p.dir / "reference.cpp").string() + ": its compile failed: " + ro.failure);
      }
      return Status::InvalidArgument((p.dir / "reference.cpp").string() + ": does not compile:\n" +
                                     (Trim(ro.log).empty() ? ro.failure : TruncateMiddle(ro.log, 4000)));
    }
    BuildRequest link;
    link.label = "reference-link";
    link.argv = {tc_.cxx.string(), drv.artifact.string(), ro.artifact.string(), "-o", "reference"};
    link.argv.insert(link.argv.end(), folders_.rpath_flags.begin(), folders_.rpath_flags.end());
    link.inputs = {drv.artifact, ro.artifact};
    link.output = "reference";
    link.key_extra = ToolKey();
    RG_ASSIGN_OR_RETURN(BuildOutcome exe, builds_->Build(link));
    if (!exe.ok) {
      return Status::InvalidArgument((p.dir / "reference.cpp").string() +
                                     ": does not link with the spec's signature `" + p.spec.Signature() +
                                     "`:\n" + TruncateMiddle(exe.log, 4000));
    }
    return exe;
  }

  // Static checks, compile, object checks and link of a candidate. Fills
  // `result` and returns the executable's path, or nullopt when the
  // candidate failed (the verdict then says why).
  // `device_code`: with `device_only`, the fatbin compile already done for
  // this source (CompileOnlyMany's batch), used instead of compiling it again.
  Result<std::optional<fs::path>> BuildCandidate(const Problem& p, const std::string& source,
                                                 VerifyResult* result, bool device_only = false,
                                                 const BuildOutcome* device_code = nullptr) {
    const ProblemSpec& spec = p.spec;
    const bool kernel_form = KernelForm(spec);
    if (o_.kernel_form && !kernel_form) {
      return Status::InvalidArgument(p.dir.string() + ": problem " + spec.name +
                                     " has no kernel form (no \"kernel\" section in problem.json)");
    }
    if (kernel_form && o_.cpu_candidate()) return Status::InvalidArgument("the kernel form needs a CUDA candidate");
    result->candidate_hash = HashHex(source);
    result->form = kernel_form ? "kernel" : "dropin";
    verify::StaticCheckOptions sc;
    sc.function = kernel_form ? spec.kernel->function : spec.function;
    sc.libraries = spec.libraries;
    sc.require_kernel = !o_.cpu_candidate();
    sc.kernel_only = kernel_form;
    auto findings = verify::StaticCheck(source, sc);
    if (!findings.empty()) return Reject(findings, result);
    if (!o_.cpu_candidate() && !tc_.has_nvcc()) {
      return Status::FailedPrecondition("nvcc not found (set REGRAPHT_NVCC or put CUDA's bin on PATH)");
    }
    // The device-only compile gate (CompileOnly) builds a fatbin for every
    // arch and stops; every other path compiles the whole translation unit
    // (for the emulator too: its host object is what the object checks read).
    const bool fatbin = device_only && !o_.cpu_candidate();
    BuildRequest obj = CandidateObjectRequest(spec, source, kernel_form, fatbin);
    const bool cuda_driver = !o_.cpu_candidate() && !o_.emulated();
    auto drv_future =
        std::async(std::launch::async, [&] { return BuildDriver(spec, cuda_driver, kernel_form, fatbin); });
    auto co = fatbin && device_code ? Result<BuildOutcome>(*device_code) : builds_->Build(obj);
    auto drv = drv_future.get();
    if (!co.ok()) return co.status();
    if (!drv.ok()) return drv.status();
    if (!drv->ok) return DriverBuildError("generated driver", *drv);
    if (!RecordCandidateCompile(*co, result)) return std::optional<fs::path>();
    if (fatbin) return std::optional<fs::path>(co->artifact);
    std::optional<fs::path> adapter;
    if (kernel_form) {
      RG_ASSIGN_OR_RETURN(BuildOutcome ad, BuildAdapter(spec, o_.emulated()));
      if (!ad.ok) return Status::Internal("the kernel form's generated adapter does not compile:\n" + ad.log);
      adapter = ad.artifact;
    }
    RG_ASSIGN_OR_RETURN(auto object_findings, CheckObject(p, source, co->artifact, drv->artifact, adapter));
    if (!object_findings.empty()) return Reject(object_findings, result);
    if (o_.emulated()) {
      return BuildEmulated(kernel_form ? verify::KernelFormCandidateSource(spec, source) : source, co->artifact,
                           drv->artifact, adapter, result);
    }
    return LinkCandidate(spec, drv->artifact, co->artifact, adapter, result);
  }

  // The candidate's object: nvcc's (g++'s for --cpu-candidate) whole
  // translation unit, or with `fatbin` its device code for every arch.
  BuildRequest CandidateObjectRequest(const ProblemSpec& spec, const std::string& source, bool kernel_form,
                                      bool fatbin) const {
    BuildRequest obj;
    obj.label = "candidate";
    obj.files = {{"candidate.cu", kernel_form ? verify::KernelFormCandidateSource(spec, source) : source}};
    if (o_.cpu_candidate()) {
      obj.argv = {tc_.cxx.string(), "-std=c++17", "-O3", "-x", "c++", "-save-temps", "-c", "candidate.cu",
                  "-o", "candidate.o"};
    } else {
      obj.argv = NvccArgv(fatbin, "candidate.cu", fatbin ? "candidate.fatbin" : "candidate.o");
      // Conditional directives: keep each pass's preprocessed source, for
      // the emulator's pass check (verify/build/pass_check.h; reduced and removed
      // by CheckObject).
      if (!fatbin && verify::HasConditionalDirective(obj.files["candidate.cu"])) obj.argv.push_back("--keep");
    }
    obj.output = fatbin ? "candidate.fatbin" : "candidate.o";
    obj.key_extra = ToolKey();
    // What CheckObject derives from a --keep compile (pass_views.txt) is
    // part of the entry: a new format needs new entries.
    if (std::find(obj.argv.begin(), obj.argv.end(), "--keep") != obj.argv.end()) obj.key_extra += "|pass-views-v1";
    return obj;
  }

  // Records the candidate's compile (time, cache hit, ptxas figures); false,
  // with judge/'s verdict (compile error or timeout), when it failed.
  static bool RecordCandidateCompile(const BuildOutcome& co, VerifyResult* result) {
    result->time_compile_ms = co.time_ms;
    result->compile_cached = co.cached;
    for (const auto& k : verify::ParsePtxasLog(co.log)) {
      result->kernels.push_back({k.kernel, k.arch, k.registers, k.shared_bytes, k.constant_bytes,
                                 k.stack_bytes, k.spill_store_bytes, k.spill_load_bytes});
    }
    if (co.ok) return true;
    verify::JudgeCompileFailure(co.failure, co.log, result);
    return false;
  }

  // nvcc on `file` with the candidate's flags and every arch: a fatbin
  // (device code only) or an object with the host compiler's temporaries
  // kept (the object checks read them).
  // nvcc with the host compiler every other build uses (-ccbin): the same
  // compiler, wherever it lives, for the candidate's host code and the rest.
  std::vector<std::string> NvccHead() const {
    return {tc_.nvcc.string(), "-ccbin", tc_.cxx.string(), "-std=c++17"};
  }

  std::vector<std::string> NvccArgv(bool fatbin, const std::string& file, const std::string& out) const {
    std::vector<std::string> argv = NvccHead();
    argv.insert(argv.end(), o_.nvcc_flags.begin(), o_.nvcc_flags.end());
    for (const auto& g : verify::GencodeFlags(o_.archs)) argv.push_back(g);
    if (!fatbin) argv.insert(argv.end(), {"-Xcompiler", "-save-temps"});
    argv.insert(argv.end(), {"-Xptxas", "-v", fatbin ? "-fatbin" : "-c", file, "-o", out});
    return argv;
  }

  // The kernel form's host adapter (verify/build/kernel_form.h): nvcc for the GPU,
  // or rewritten for the emulator and built like an emulated candidate.
  Result<BuildOutcome> BuildAdapter(const ProblemSpec& spec, bool emulated) {
    RG_ASSIGN_OR_RETURN(std::string src, verify::GenerateKernelAdapter(spec));
    BuildRequest req;
    req.key_extra = ToolKey();
    if (!emulated) {
      req.label = "kernel-adapter";
      req.files = {{"adapter.cu", src}};
      req.argv = NvccHead();
      req.argv.push_back("-O2");
      for (const auto& g : verify::GencodeFlags(o_.archs)) req.argv.push_back(g);
      req.argv.insert(req.argv.end(), {"-c", "adapter.cu", "-o", "adapter.o"});
      req.output = "adapter.o";
      return builds_->Build(req);
    }
    RG_ASSIGN_OR_RETURN(std::string rewritten, verify::RewriteForEmulation(src));
    RG_ASSIGN_OR_RETURN(BuildRequest emulated_req, EmulatedObject("kernel-adapter-emu", "adapter_emu", rewritten));
    return builds_->Build(emulated_req);
  }

  // The host compiler's flags for everything built for the emulator: the
  // emulator's header and the checker's instrumentation.
  std::vector<std::string> EmulatedFlags() const {
    std::vector<std::string> f = {tc_.cxx.string(), "-std=c++17", "-O1", "-fno-strict-aliasing", "-w", "-I."};
    for (const auto& flag : verify::EmulationCheckFlags()) f.push_back(flag);
    for (const auto& flag : HostPassMacros()) f.push_back(flag);
    return f;
  }

  // The macros nvcc's host pass defines (nvcc --dryrun), so that the
  // emulator's one compilation reads a candidate as that pass does; the
  // sanitizer's own macro is removed. What still differs (the device
  // passes' __CUDA_ARCH__, the two sets of CUDA headers) the pass check
  // finds (verify/build/pass_check.h).
  std::vector<std::string> HostPassMacros() const {
    auto v = Split(tc_.nvcc_version, '.');
    while (v.size() < 3) v.push_back("0");
    std::vector<std::string> archs;
    for (const auto& a : o_.archs) archs.push_back(std::to_string(ParseInt(a.substr(3, 3)).value_or(0) * 10));
    return {"-D__CUDACC__", "-D__NVCC__", "-D__CUDACC_VER_MAJOR__=" + v[0], "-D__CUDACC_VER_MINOR__=" + v[1],
            "-D__CUDACC_VER_BUILD__=" + v[2], "-D__CUDA_API_VER_MAJOR__=" + v[0], "-D__CUDA_API_VER_MINOR__=" + v[1],
            "-D__CUDA_ARCH_LIST__=" + Join(archs, ","), "-U__SANITIZE_THREAD__"};
  }

  // `header` (one of `files`) precompiled with `flags` (GCC's precompiled
  // header), once per toolchain, header and flags. Parsing the emulator's
  // header was about three quarters of a small candidate's emulated build,
  // the driver's headers a quarter of a driver's (docs/emulator.md, "Cost").
  // A precompiled header never changes the code the compiler emits; one it
  // cannot use, it ignores and reads the header text beside it.
  Result<BuildOutcome> BuildPch(const std::string& label, std::map<std::string, std::string> files,
                                const std::string& header, const std::vector<std::string>& flags) {
    BuildRequest req;
    req.label = label;
    req.files = std::move(files);
    req.argv = flags;
    req.argv.insert(req.argv.end(), {"-x", "c++-header", header, "-o", header + ".gch"});
    req.output = header + ".gch";
    req.key_extra = ToolKey();
    return builds_->Build(req);
  }

  // Makes `req` read the headers from the precompiled header's cache entry
  // (read-only: the only cache path the build sees besides its own folder),
  // or writes `headers` beside its source where the precompiled header did
  // not build.
  static void UsePch(const BuildOutcome& pch, std::map<std::string, std::string> headers, BuildRequest* req) {
    if (pch.ok) {
      fs::path dir = pch.artifact.parent_path();
      req->argv.push_back("-I" + dir.string());
      req->inputs.push_back(dir);
      return;
    }
    for (auto& [name, text] : headers) req->files[name] = std::move(text);
  }

  // Source already rewritten for the emulator, compiled by the host
  // compiler with the emulator's headers (precompiled) and the checker's
  // instrumentation, as `stem`.o.
  Result<BuildRequest> EmulatedObject(const std::string& label, const std::string& stem, const std::string& rewritten) {
    const std::vector<std::string> flags = EmulatedFlags();
    RG_ASSIGN_OR_RETURN(BuildOutcome pch,
                        BuildPch("emulator-pch", verify::EmulationHeaders(), std::string(verify::kEmulationHeader), flags));
    BuildRequest req;
    req.label = label;
    req.files[stem + ".cc"] = rewritten;
    req.argv = flags;
    UsePch(pch, verify::EmulationHeaders(), &req);
    for (const std::string& a : {std::string("-include"), std::string(verify::kEmulationHeader), std::string("-c"),
                                 stem + ".cc", std::string("-o"), stem + ".o"}) {
      req.argv.push_back(a);
    }
    req.output = stem + ".o";
    req.key_extra = ToolKey();
    return req;
  }

  static std::optional<fs::path> Reject(const std::vector<verify::StaticFinding>& findings, VerifyResult* result) {
    std::vector<std::string> texts;
    for (const auto& f : findings) texts.push_back(f.ToString());
    verify::JudgeStaticFindings(texts, result);
    return std::nullopt;
  }

  // The object checks (verify/build/object_check.h) on a built candidate. The host
  // translation unit that -save-temps left beside the object is reduced to
  // its verdict on first use (host_asm.txt) and removed from the cache.
  Result<std::vector<verify::StaticFinding>> CheckObject(const Problem& p, const std::string& source,
                                                         const fs::path& object, const fs::path& driver,
                                                         const std::optional<fs::path>& adapter) {
    RG_ASSIGN_OR_RETURN(std::string obj, ReadFile(object));
    RG_ASSIGN_OR_RETURN(std::string drv, ReadFile(driver));
    verify::ObjectCheckOptions oc;
    oc.function = KernelForm(p.spec) ? p.spec.kernel->function : p.spec.function;
    if (adapter) {
      RG_ASSIGN_OR_RETURN(std::string ad, ReadFile(*adapter));
      oc.harness_needs = verify::UndefinedSymbols(ad);
      // The adapter calls the kernel's host stub: the one symbol of its that
      // the candidate must define.
      std::erase_if(oc.harness_needs, [&](const std::string& s) {
        return s.rfind("_Z" + std::to_string(p.spec.kernel->function.size()) + p.spec.kernel->function, 0) == 0;
      });
    }
    oc.libraries = p.spec.libraries;
    oc.kernels = verify::KernelNames(source);
    auto findings = verify::ObjectCheck(obj, drv, oc);
    fs::path dir = object.parent_path();
    fs::path verdict = dir / "host_asm.txt";
    auto cached = ReadFile(verdict);
    std::string asm_finding;
    if (cached.ok()) {
      asm_finding = *cached;
    } else {
      auto tu = ReadFile(dir / "candidate.ii");
      if (!tu.ok()) return Status::Internal("the candidate's host translation unit is missing in " + dir.string());
      auto f = verify::HostAsmFindings(*tu, "candidate.cu");
      asm_finding = f.empty() ? "" : f.front().rule + "\n" + std::to_string(f.front().line) + "\n" + f.front().detail;
      RG_RETURN_IF_ERROR(WriteFileAtomic(verdict, asm_finding));
      std::error_code ec;
      for (const char* junk : {"candidate.ii", "candidate.s", "candidate.cudafe1.ii", "candidate.cudafe1.s"}) {
        fs::remove(dir / junk, ec);
      }
    }
    RG_RETURN_IF_ERROR(ReducePassViews(dir));
    if (!asm_finding.empty()) {
      auto parts = Split(asm_finding, '\n');
      if (parts.size() >= 3) {
        findings.push_back({parts[0], static_cast<int>(ParseInt(parts[1]).value_or(0)), parts[2]});
      }
    }
    return findings;
  }

  // nvcc's intermediates of a --keep compile (verify/build/pass_check.h): the lines
  // each pass kept, written once as pass_views.txt beside the object; the
  // large files removed from the cache.
  static Status ReducePassViews(const fs::path& dir) {
    std::error_code ec;
    if (!fs::exists(dir / "candidate.cpp4.ii", ec)) return Status::Ok();
    std::vector<verify::PassView> views;
    RG_ASSIGN_OR_RETURN(std::string host, ReadFile(dir / "candidate.cpp4.ii"));
    views.push_back({"nvcc's host pass", verify::SurvivingLines(host, "candidate.cu")});
    std::vector<fs::path> junk;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
      std::string name = e.path().filename().string();
      if (name == "candidate.o" || name == "candidate.cu" || name == "meta.json" || name == "host_asm.txt") continue;
      if (EndsWith(name, ".cpp1.ii")) {
        RG_ASSIGN_OR_RETURN(std::string dev, ReadFile(e.path()));
        // candidate.<arch>.cpp1.ii, or candidate.cpp1.ii for a single arch
        std::string arch = name.size() > 17 ? name.substr(10, name.size() - 10 - 8) : "the one architecture";
        views.push_back({"nvcc's device pass for " + arch, verify::SurvivingLines(dev, "candidate.cu")});
      }
      if (StartsWith(name, "candidate.") && name != "candidate.ii") junk.push_back(e.path());
    }
    RG_RETURN_IF_ERROR(WriteFileAtomic(dir / "pass_views.txt", verify::FormatPassViews(views)));
    for (const auto& j : junk) fs::remove(j, ec);
    return Status::Ok();
  }

  // A candidate whose conditional directives select different lines in
  // nvcc's passes or in the emulator's compilation: the reason it cannot be
  // emulated, else "".
  Result<std::string> PassDifference(const std::string& source, const std::string& rewritten,
                                     const fs::path& nvcc_object) {
    if (!verify::HasConditionalDirective(source)) return std::string();
    auto text = ReadFile(nvcc_object.parent_path() / "pass_views.txt");
    if (!text.ok()) return std::string("nvcc's preprocessed passes are missing");
    std::vector<verify::PassView> views = verify::ParsePassViews(*text);
    RG_ASSIGN_OR_RETURN(BuildRequest req, EmulatedObject("candidate-emu-pp", "candidate_emu", rewritten));
    req.argv.erase(std::find(req.argv.begin(), req.argv.end(), "-c"));
    *std::find(req.argv.begin(), req.argv.end(), "candidate_emu.o") = "candidate_emu.ii";
    req.argv.push_back("-E");
    req.output = "candidate_emu.ii";
    RG_ASSIGN_OR_RETURN(BuildOutcome pp, builds_->Build(req));
    if (!pp.ok) return std::string("the emulator cannot preprocess it: ") + FirstError(pp.log);
    RG_ASSIGN_OR_RETURN(std::string ii, ReadFile(pp.artifact));
    views.push_back({"the emulator's compilation", verify::SurvivingLines(ii, "candidate_emu.cc")});
    return verify::FirstPassDifference(views);
  }

  Result<std::optional<fs::path>> LinkCandidate(const ProblemSpec& spec, const fs::path& driver_obj,
                                                const fs::path& candidate_obj, const std::optional<fs::path>& adapter,
                                                VerifyResult* result) {
    BuildRequest link;
    link.label = "candidate-link";
    link.argv = {tc_.cxx.string(), driver_obj.string(), candidate_obj.string(), "-o", "candidate",
                 // Full RELRO: the GOT is read-only before the candidate runs.
                 "-Wl,-z,relro,-z,now"};
    link.argv.insert(link.argv.end(), folders_.rpath_flags.begin(), folders_.rpath_flags.end());
    link.inputs = {driver_obj, candidate_obj};
    if (adapter) {
      link.argv.insert(link.argv.begin() + 2, adapter->string());
      link.inputs.push_back(*adapter);
    }
    if (!o_.cpu_candidate()) {
      link.argv.push_back("-L" + (tc_.cuda_root / "lib64").string());
      for (const auto& lib : spec.libraries) {
        if (lib == "cublas") link.argv.push_back("-lcublas");
        if (lib == "cusparse") link.argv.push_back("-lcusparse");
        if (lib == "cufft") link.argv.push_back("-lcufft");
        if (lib == "curand") link.argv.push_back("-lcurand");
      }
      if (!adapter && KernelClock(spec)) {
        link.argv.push_back("-L" + tc_.cupti_lib.string());
        link.argv.push_back("-lcupti");
        link.argv.push_back("-Wl,-rpath," + tc_.cupti_lib.string());
      }
      // Every allocation call of the candidate (and the kernel form's adapter)
      // goes through the driver, which poisons fresh memory (rg_driver.h).
      for (const char* f : {"cudaMalloc", "cudaMallocManaged", "cudaMallocPitch", "cudaMalloc3D", "cudaMallocAsync",
                            "cudaMallocFromPoolAsync", "cudaMallocHost", "cudaHostAlloc"}) {
        link.argv.push_back(std::string("-Wl,--wrap=") + f);
      }
      link.argv.insert(link.argv.end(), {"-lcudart_static", "-ldl", "-lrt", "-lpthread"});
      link.argv.push_back("-Wl,-rpath," + (tc_.cuda_root / "lib64").string());
    }
    link.output = "candidate";
    link.key_extra = ToolKey();
    RG_ASSIGN_OR_RETURN(BuildOutcome exe, builds_->Build(link));
    result->time_compile_ms += exe.time_ms;
    if (!exe.ok) {
      verify::JudgeLinkFailure(spec, adapter.has_value(), exe.log, result);
      return std::optional<fs::path>();
    }
    return std::optional<fs::path>(exe.artifact);
  }

  // The candidate rewritten for the CPU emulator, compiled by the host
  // compiler and linked with the CPU driver. A candidate the emulator cannot
  // take is kCompiledOnly ("not emulated"), never the candidate's fault.
  Result<std::optional<fs::path>> BuildEmulated(const std::string& source, const fs::path& nvcc_object,
                                                const fs::path& driver_obj, const std::optional<fs::path>& adapter,
                                                VerifyResult* result) {
    auto not_emulated = [&](const std::string& why, const std::string& log) {
      verify::JudgeNotEmulated(Join(o_.archs, ","), why, log, result);
      return std::optional<fs::path>();
    };
    auto rewritten = verify::RewriteForEmulation(source);
    if (!rewritten.ok()) return not_emulated(rewritten.status().message(), "");
    RG_ASSIGN_OR_RETURN(std::string differs, PassDifference(source, *rewritten, nvcc_object));
    if (!differs.empty()) return not_emulated(differs, "");
    RG_ASSIGN_OR_RETURN(BuildRequest eo_req, EmulatedObject("candidate-emu", "candidate_emu", *rewritten));
    RG_ASSIGN_OR_RETURN(BuildOutcome eo, builds_->Build(eo_req));
    result->time_compile_ms += eo.time_ms;
    if (!eo.ok) return not_emulated("the emulator cannot build it: " + FirstError(eo.log), eo.log);
    {
      RG_ASSIGN_OR_RETURN(std::string emu_obj, ReadFile(eo.artifact));
      verify::ObjectCheckOptions hooks;
      hooks.hooks_only = true;
      auto findings = verify::ObjectCheck(emu_obj, "", hooks);
      if (!findings.empty()) return Reject(findings, result);
    }
    BuildRequest chk;
    chk.label = "emulator-checker";
    chk.files["regrapht_emu_check.cc"] = std::string(verify::EmulationCheckerSource());
    chk.argv = {tc_.cxx.string(), "-std=c++20", "-O2", "-c", "regrapht_emu_check.cc", "-o", "regrapht_emu_check.o"};
    chk.output = "regrapht_emu_check.o";
    chk.key_extra = ToolKey();
    RG_ASSIGN_OR_RETURN(BuildOutcome co, builds_->Build(chk));
    result->time_compile_ms += co.time_ms;
    if (!co.ok) return Status::Internal("the emulator's checker does not build: " + FirstError(co.log));
    BuildRequest link;
    link.label = "candidate-emu-link";
    link.argv = {tc_.cxx.string(), driver_obj.string(), eo.artifact.string(), co.artifact.string(), "-o", "candidate",
                 "-lpthread", "-Wl,-z,relro,-z,now"};
    link.argv.insert(link.argv.end(), folders_.rpath_flags.begin(), folders_.rpath_flags.end());
    link.inputs = {driver_obj, eo.artifact, co.artifact};
    if (adapter) {
      link.argv.insert(link.argv.begin() + 2, adapter->string());
      link.inputs.push_back(*adapter);
    }
    link.output = "candidate";
    link.key_extra = ToolKey();
    RG_ASSIGN_OR_RETURN(BuildOutcome exe, builds_->Build(link));
    result->time_compile_ms += exe.time_ms;
    if (!exe.ok) return not_emulated("the emulated program does not link: " + FirstError(exe.log), exe.log);
    result->emulated = true;
    return std::optional<fs::path>(exe.artifact);
  }

  // ---- runs -------------------------------------------------------------------

  // Runs a driver executable on `plan`. A candidate (`trust`) runs in the
  // sandbox from a fresh folder under SandboxRunsDir() holding only a copy of
  // the executable and the plan, as the unprivileged sandbox user where the
  // harness is root. Records come back through a pipe (fd 3),
  // sealed with a key sent on stdin (sandboxed/driver/rg_driver.h).
  // `wrapper`: a program the candidate runs under (compute-sanitizer), with
  // its arguments; the run's limits are `slowdown` times the spec's.
  Result<RunOutput> RunDriver(const fs::path& exe, const std::string& plan, const ProblemSpec& spec,
                              bool gpu, RunTrust trust, const std::vector<std::string>& wrapper = {},
                              double slowdown = 1) {
    const bool untrusted = trust == RunTrust::kUntrustedCandidate;
    fs::path runs;
    if (untrusted) {
      RG_ASSIGN_OR_RETURN(runs, SandboxRunsDir());
    } else {
      runs = cache_ / "runs";
      RG_RETURN_IF_ERROR(MakeDirs(runs));
    }
    RG_ASSIGN_OR_RETURN(TempDir work, TempDir::Create("run-", runs));
    if (o_.keep_work) work.Keep();
    RG_RETURN_IF_ERROR(WriteFile(work.path() / "plan.txt", plan));
    CommandSpec cs;
    if (untrusted) {
      RG_RETURN_IF_ERROR(CopyExecutable(exe, work.path() / "candidate"));
      cs.argv = wrapper;
      cs.argv.insert(cs.argv.end(), {"./candidate", "plan.txt", "3"});
      cs.env = {"HOME=" + std::string(kBoxPath)};
      cs.box_cwd = true;
    } else {
      cs.argv = {exe.string(), (work.path() / "plan.txt").string(), "3"};
      cs.env = {"HOME=" + work.path().string()};
    }
    cs.cwd = work.path();
    cs.clean_env = true;
    cs.sandbox = untrusted;
    cs.uses_gpu = gpu;
    cs.readable = folders_.run;
    cs.records_fd = 3;
    std::string key = RandomKey();
    cs.stdin_data = key;
    // The emulator runs every CUDA thread on the CPU with its checks: it gets
    // four times the spec's limit (docs/emulator.md).
    const double limit_s = spec.time_limit_s * (o_.emulated() && !gpu ? 4 : 1) * slowdown;
    cs.limits.wall_seconds = limit_s;
    cs.limits.cpu_seconds = limit_s * 4;
    cs.limits.memory_bytes = o_.run_memory_bytes;
    cs.limits.max_processes = o_.max_processes;
    auto est = EstimateBytes(spec, spec.timing);
    int64_t out_bytes = est.ok() ? *est : 0;
    cs.limits.file_size_bytes = std::max<int64_t>(int64_t{1} << 30, out_bytes * 8);
    cs.max_records_bytes = static_cast<size_t>(cs.limits.file_size_bytes);
    cs.max_output_bytes = 32 * 1024;
    RunOutput out;
    RG_ASSIGN_OR_RETURN(out.process, runner_->Run(cs));
    // A child that another thread forked while the copy above was open holds
    // the file open for writing until it execs, and exec then fails with
    // ETXTBSY: a race of concurrent verifications, not the candidate's fault.
    for (int retry = 1; retry <= 5 && untrusted && out.process.records.empty() &&
                        out.process.stderr_text.find("Text file busy") != std::string::npos;
         ++retry) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20 * retry));
      RG_ASSIGN_OR_RETURN(out.process, runner_->Run(cs));
    }
    if (out.process.records_overflow) {
      out.records_error = "records exceeded " + std::to_string(cs.max_records_bytes) + " bytes";
      return out;
    }
    auto recs = verify::ParseRecords(out.process.records, key);
    if (recs.ok()) out.records = std::move(*recs);
    else out.records_error = recs.status().message();
    if (out.process.records.empty()) out.records_error = "no output records";
    return out;
  }

  // The candidate's driver on each of `plans` (SplitPlans), all at once.
  Result<std::vector<RunOutput>> RunParts(const fs::path& exe, const std::vector<std::string>& plans,
                                          const ProblemSpec& spec) {
    const bool gpu = !o_.cpu_candidate() && !o_.emulated();
    std::vector<Result<RunOutput>> runs = ParallelMap(plans.size(), static_cast<int>(plans.size()), [&](size_t i) {
      return RunDriver(exe, plans[i], spec, gpu, RunTrust::kUntrustedCandidate);
    });
    std::vector<RunOutput> out;
    for (auto& r : runs) {
      if (!r.ok()) return r.status();
      out.push_back(std::move(*r));
    }
    return out;
  }

  verify::RunFacts RunFactsOf(const RunOutput& run, const ProblemSpec& spec, const VerifyResult& res) const {
    return verify::RunFacts{run.process,
                            run.records ? &*run.records : nullptr,
                            run.records_error,
                            spec.time_limit_s * (o_.emulated() ? 4 : 1),
                            res.env.archs,
                            o_.emulated()};
  }

  // Of parts that make different calls of the same cases, the verdict of the
  // one that ended (a crash, a check, the wall limit) at the earliest call in
  // the order one process makes them (case, then call; before any call
  // first); true when one did, with *res set from it.
  bool ClassifyParts(const std::vector<RunOutput>& parts, const ProblemSpec& spec, VerifyResult* res) {
    if (parts.size() < 2) return false;
    std::optional<std::pair<std::pair<int, int>, VerifyResult>> earliest;
    for (size_t i = 0; i < parts.size(); ++i) {
      VerifyResult r = *res;
      const RunOutput& run = parts[i];
      FillEnvironment(run.records ? &*run.records : nullptr, run.process.sandbox, &r);
      if (!verify::ClassifyRun(RunFactsOf(run, spec, r), &r)) continue;
      std::pair<int, int> at{-1, static_cast<int>(i)};  // before any call
      if (run.records && run.records->last_call) at = verify::CaseCallOf(*run.records->last_call).value_or(at);
      if (!earliest || at < earliest->first) earliest.emplace(at, std::move(r));
    }
    if (!earliest) return false;
    *res = std::move(earliest->second);
    res->time_run_ms = 0;
    for (const auto& run : parts) res->time_run_ms = std::max(res->time_run_ms, run.process.wall_ms);
    return true;
  }

  // Parts that each finished as one run: the longest wall time, the output
  // of all, the records merged (verify/judge/records.h MergeRecords).
  static RunOutput MergeParts(std::vector<RunOutput> parts) {
    if (parts.size() == 1) return std::move(parts[0]);
    RunOutput all;
    all.process = parts[0].process;
    std::vector<DriverRecords> records;
    for (size_t i = 0; i < parts.size(); ++i) {
      RunOutput& run = parts[i];
      if (i > 0) {
        all.process.wall_ms = std::max(all.process.wall_ms, run.process.wall_ms);
        all.process.stdout_text += run.process.stdout_text;
        all.process.stderr_text += run.process.stderr_text;
      }
      if (run.records) records.push_back(std::move(*run.records));
    }
    auto merged = verify::MergeRecords(std::move(records));
    if (merged.ok()) all.records = std::move(*merged);
    else all.records_error = merged.status().message();
    return all;
  }

  static std::string RandomKey() {
    std::random_device rd;
    std::string key(32, '\0');
    for (auto& c : key) c = static_cast<char>(rd() & 0xff);
    return key;
  }

  verify::PlanOptions CandidatePlan() const {
    verify::PlanOptions po;
    po.timing = o_.timing;
    po.warmup = o_.warmup;
    po.min_reps = o_.min_reps;
    po.max_reps = o_.max_reps;
    po.max_seconds = o_.max_timing_seconds;
    po.flush_l2 = !o_.cpu_candidate();
    po.timing_size_case = o_.emulated() && o_.emulate_timing_size;
    return po;
  }

  verify::PlanOptions ReferencePlan() const {
    verify::PlanOptions po;
    po.timing = o_.timing;
    po.warmup = o_.reference_warmup;
    po.min_reps = o_.reference_min_reps;
    po.max_reps = o_.reference_max_reps;
    po.max_seconds = o_.reference_max_timing_seconds;
    po.flush_l2 = false;
    po.timing_size_case = o_.emulated() && o_.emulate_timing_size;
    return po;
  }

  // Reference outputs and timing for a problem, computed once per machine
  // and cached on disk (keyed by spec, source, flags, compiler and CPU).
  // `fit`: the emulator's rungs of the timing-size input, run as cases too.
  Result<std::shared_ptr<const DriverRecords>> ReferenceRecords(const Problem& p, const verify::FittedTiming& fit) {
    verify::PlanOptions po = ReferencePlan();
    AddRungs(fit, &po);
    po.emulate_max_work = 0;
    std::string plan = verify::MakePlan(p.spec, po);
    // The drop-in driver BuildReferenceExe links, and its flags: a regrapht
    // that generates inputs differently must not read an older one's outputs.
    RG_ASSIGN_OR_RETURN(std::string driver, verify::GenerateDriver(p.spec));
    Hasher h;
    h.Add("regrapht-ref-v3").Add(p.spec_text).Add(p.reference_source).Add(plan).Add(ToolKey()).Add(machine_);
    for (const auto& f : o_.reference_flags) h.Add(f);
    h.Add(std::string(verify::DriverRuntimeHeader())).Add(driver);
    for (const auto& f : DriverFlags(false, false)) h.Add(f);
    std::string key = h.Hex();
    std::lock_guard<std::mutex> lock(ref_mu_);
    if (auto it = ref_memo_.find(key); it != ref_memo_.end()) return it->second;
    fs::path dir = cache_ / "ref" / key;
    auto cached = ReadFile(dir / "records.bin");
    if (cached.ok()) {
      std::error_code touch;  // most recently used: the last to be pruned
      fs::last_write_time(dir / "records.bin", fs::file_time_type::clock::now(), touch);
      auto recs = verify::ParseRecords(*cached);
      if (recs.ok() && recs->finished) {
        spdlog::info("reference outputs of {}: cached ({})", p.spec.name, dir.string());
        if (po.timing) {
          auto how = ReadFile(dir / "timed.txt");
          recs->timed_how = std::string(Trim(how.ok() ? *how : "not recorded")) + "; cached on this machine";
        }
        auto ptr = std::make_shared<const DriverRecords>(std::move(*recs));
        ref_memo_[key] = ptr;
        return ptr;
      }
      spdlog::warn("reference outputs of {}: the cached copy in {} is unreadable ({}); running the reference again",
                   p.spec.name, dir.string(), recs.ok() ? "no end line" : recs.status().message());
    }
    RG_ASSIGN_OR_RETURN(BuildOutcome exe, BuildReferenceExe(p));
    spdlog::info("reference of {}: running it for its outputs (cached in {})", p.spec.name, dir.string());
    std::string where = "reference of " + p.spec.name;
    RunOutput run;
    {
      // A timed reference runs alone among regrapht's timed phases on this
      // machine (verify/gpu_lock.h); its test cases run under the lock too.
      std::unique_ptr<verify::GpuLock> lock;
      std::optional<verify::TimedScope> timed;
      if (po.timing) {
        RG_ASSIGN_OR_RETURN(lock, TimingLock(false));
        timed.emplace();
      }
      RG_ASSIGN_OR_RETURN(run, RunDriver(exe.artifact, plan, p.spec, false, RunTrust::kTrustedReference));
      if (lock && run.records) run.records->timed_how = TimedHow(*lock, "exclusive");
    }
    if (!run.process.ok()) {
      return Status::InvalidArgument(where + ": run failed (" + run.process.Describe() + ")" +
                                     (run.records ? " " + verify::DescribeCall(*run.records) : "") + "\n" +
                                     TruncateMiddle(run.process.stderr_text, 2000));
    }
    if (!run.records || !run.records->finished) {
      // The process ended well but the driver never finished: the function
      // ended the program (exit(0), quick_exit, _Exit) instead of returning.
      return Status::InvalidArgument((p.dir / "reference.cpp").string() + ": the reference ended the program (" +
                                     run.process.Describe() + ") before the harness had its outputs" +
                                     (run.records ? " " + verify::DescribeCall(*run.records) : "") +
                                     ": does '" + p.spec.function +
                                     "' call exit()? It must return to its caller");
    }
    RG_RETURN_IF_ERROR(CheckReferenceRecords(p, *run.records));
    // Store what the reference wrote, atomically.
    if (!run.records->timed_how.empty()) {
      RG_RETURN_IF_ERROR(WriteFileAtomic(dir / "timed.txt", run.records->timed_how + "\n"));
    }
    RG_RETURN_IF_ERROR(WriteFileAtomic(dir / "records.bin", verify::SerializeRecords(*run.records)));
    PruneReferenceCache(cache_ / "ref", dir);
    auto ptr = std::make_shared<const DriverRecords>(std::move(*run.records));
    ref_memo_[key] = ptr;
    return ptr;
  }

  // The reference must be a sane oracle: every output written, deterministic,
  // inputs untouched, outputs not degenerate.
  Status CheckReferenceRecords(const Problem& p, const DriverRecords& r) {
    const ProblemSpec& spec = p.spec;
    std::string where = (p.dir / "reference.cpp").string();
    if (!r.mutated.empty()) {
      return Status::InvalidArgument(where + ": modifies an input (" + r.mutated.front() +
                                     "): declare that argument role \"inout\"");
    }
    struct Out {
      std::string name;
      ElementType type;
    };
    std::vector<Out> outs;
    for (const auto& a : spec.args) {
      if (a.is_checked()) outs.push_back({a.name, a.type});
    }
    if (spec.returns) outs.push_back({"return", *spec.returns});
    // In-outs the reference left equal to their input in every test case (an
    // empty body, say): the tests could not tell it from doing nothing.
    std::map<std::string, std::set<std::string>> untouched;  // in-out -> "case" of first calls
    for (const auto& e : r.events) {
      if (!e.starts_with("untouched ")) continue;
      auto f = Split(e.substr(10), ' ');
      if (f.size() < 3 || f[1] != "0") continue;
      auto c = ParseInt(f[0]);
      if (!c || *c < 0 || *c >= static_cast<int64_t>(spec.tests.size())) continue;
      for (size_t k = 2; k < f.size(); ++k) untouched[f[k]].insert(f[0]);
    }
    for (const auto& [name, cases] : untouched) {
      if (cases.size() == spec.tests.size() && !spec.allow_constant_output) {
        return Status::InvalidArgument(
            where + ": leaves the in-out '" + name +
            "' equal to its input in every "
            "test case: the tests cannot tell a right answer from doing nothing "
            "(declare it role \"input\" if the function only reads it; set "
            "\"allow_constant_output\" if that is intended)");
      }
    }
    for (const auto& o : outs) {
      bool varies = false;
      std::optional<std::string> first;
      for (size_t i = 0; i < spec.tests.size(); ++i) {
        const ArrayRecord* r0 = r.Find(static_cast<int>(i), 0, o.name);
        const ArrayRecord* r1 = r.Find(static_cast<int>(i), 1, o.name);
        if (!r0 || !r1) return Status::Internal(where + ": missing output records for '" + o.name + "'");
        int64_t poison = verify::FindPoison(spec, o.type, *r0);
        if (poison >= 0) {
          return Status::InvalidArgument(
              where + ": output '" + o.name + "'[" + std::to_string(poison) + "] in test case " +
              std::to_string(i) + " is NaN or never written (every output element must be written; "
              "if the function only updates part of it, declare the role \"inout\")");
        }
        if (r0->bytes != r1->bytes || r0->count != r1->count) {
          return Status::InvalidArgument(where + ": output '" + o.name + "' differs between two calls on "
                                         "the same inputs (test case " + std::to_string(i) + "): the reference must be deterministic");
        }
        if (r0->count >= 2 && !verify::IsConstant(*r0)) varies = true;
        if (!first) first = r0->bytes;
        else if (*first != r0->bytes) varies = true;
      }
      if (!varies && !spec.allow_constant_output) {
        return Status::InvalidArgument(where + ": output '" + o.name + "' is the same constant in every test "
                                       "case: the tests cannot tell a right answer from a wrong one (set "
                                       "\"allow_constant_output\" if that is intended)");
      }
    }
    return Status::Ok();
  }

  // ---- judging --------------------------------------------------------------------

  void FillEnvironment(const DriverRecords* cand, const std::string& sandbox, VerifyResult* res) {
    Environment& e = res->env;
    e.cuda_toolkit_version = tc_.nvcc_version;
    e.host_cpu = host_cpu_;
    e.host_compiler = tc_.cxx_version;
    e.nvcc_flags = o_.cpu_candidate() ? "(cpu candidate: g++ -O3)" : Join(o_.nvcc_flags, " ");
    e.reference_flags = Join(o_.reference_flags, " ");
    e.archs = o_.cpu_candidate() ? "host-cpu" : Join(o_.archs, ",");
    if (o_.emulated()) {
      e.gpu_name = std::string(kEmulatorGpuName);
      e.nvcc_flags += " (emulated: g++ -O1 -fsanitize=thread,bounds with regrapht_cuda_emu.h and its checker; "
                      "blocks and threads in a seeded order, seed = call number)";
    }
    e.sandbox = sandbox;
    e.regrapht_version = kVersion;
    if (cand && cand->gpu) {
      double mem_clock_khz = 0, bus_bits = 0;
      for (const auto& kv : Split(*cand->gpu, '|')) {
        auto eq = kv.find('=');
        if (eq == std::string::npos) continue;
        std::string k = kv.substr(0, eq), v = kv.substr(eq + 1);
        auto ver = [](const std::string& s) {
          auto n = ParseInt(s).value_or(0);
          return std::to_string(n / 1000) + "." + std::to_string((n % 1000) / 10);
        };
        if (k == "name") e.gpu_name = ReplaceAll(v, "_", " ");
        else if (k == "cc") e.gpu_cc = v;
        else if (k == "driver") e.driver_version = ver(v);
        else if (k == "runtime") e.cuda_runtime_version = ver(v);
        else if (k == "l2") e.gpu_l2_bytes = ParseInt(v).value_or(0);
        else if (k == "sms") e.gpu_sms = static_cast<int>(ParseInt(v).value_or(0));
        else if (k == "mem_clock_khz") mem_clock_khz = ParseDouble(v).value_or(0);
        else if (k == "bus_bits") bus_bits = ParseDouble(v).value_or(0);
      }
      // Double data rate: two transfers per memory clock over the bus.
      e.gpu_memory_bytes_per_s = 2 * mem_clock_khz * 1e3 * bus_bits / 8;
    }
  }

  // This process's GPU lock file (verify/gpu_lock.h), resolved once: asks
  // nvidia-smi which UUID CUDA's device 0 has.
  fs::path GpuLockPath() {
    std::call_once(gpu_lock_once_, [&] {
      CommandSpec spec;
      spec.argv = {"nvidia-smi", "--query-gpu=index,uuid", "--format=csv,noheader"};
      spec.limits.wall_seconds = 30;
      auto smi = runner_->Run(spec);
      std::string csv = smi.ok() && smi->ok() ? smi->stdout_text : "";
      std::string key = verify::GpuLockKey(GetEnv, csv, HostName());
      fs::path dir = verify::GpuLockDir(GetEnv, cache_, [](const fs::path& d) { return ::access(d.c_str(), W_OK) == 0; });
      gpu_lock_path_ = dir / (key + ".lock");
      spdlog::info("GPU timing lock: {}", gpu_lock_path_.string());
    });
    return gpu_lock_path_;
  }

  // The machine's timing lock (verify/gpu_lock.h), exclusive for a CPU timed
  // phase, shared for a GPU one.
  Result<std::unique_ptr<verify::GpuLock>> TimingLock(bool shared) {
    std::call_once(timing_lock_once_, [&] {
      fs::path dir = verify::GpuLockDir(GetEnv, cache_, [](const fs::path& d) { return ::access(d.c_str(), W_OK) == 0; });
      timing_lock_path_ = verify::MachineTimingLockPath(dir, HostName());
      spdlog::info("machine timing lock: {}", timing_lock_path_.string());
    });
    return verify::GpuLock::Acquire(timing_lock_path_, o_.gpu_lock_timeout_s, o_.cancel, shared);
  }

  static std::string Seconds(double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f s", s);
    return buf;
  }

  // Timing::how of a phase timed holding `lock`, the machine's timing lock.
  std::string TimedHow(const verify::GpuLock& lock, const char* mode) const {
    return std::string("machine timing lock ") + timing_lock_path_.string() + " held " + mode + " (waited " +
           Seconds(lock.waited_s()) + "): no other regrapht timed phase on this machine " +
           (std::string(mode) == "exclusive" ? "ran meanwhile" : "timed on the CPU meanwhile") + "; " +
           (timing_cpus_ ? "timed on " + timing_cpus_->Describe() +
                               ": regrapht's compiles and correctness runs kept off its core, memory and the "
                               "last-level cache shared"
                         : std::string("not pinned: compiles and correctness runs may have shared its core"));
  }

  // The problem as this verifier runs it: in the emulator, a timing input
  // too large for it scaled down (verify/spec/timing_sizes.h).
  Result<verify::FittedTiming> Fit(const Problem& p) const {
    if (!o_.emulated() || !o_.emulate_timing_size) return verify::FittedTiming{p, false, "", {}};
    RG_ASSIGN_OR_RETURN(verify::FittedTiming fit, verify::FitTimingInput(p, o_.emulate_max_bytes));
    RG_ASSIGN_OR_RETURN(fit.rungs, verify::TimingRungs(p, fit));
    return fit;
  }

  // The emulator's timing-size rungs as plan cases (verify/build/driver_gen.h).
  void AddRungs(const verify::FittedTiming& fit, verify::PlanOptions* po) const {
    for (const auto& r : fit.rungs) po->timing_size_rungs.push_back(r.test);
    po->emulate_max_work = o_.emulate_max_work;
  }

  // A verification during which the caller's cancel flag was set may have
  // had its compile or run killed: Cancelled, never a verdict about the code.
  Result<VerifyResult> Verify(const Problem& given, const std::string& source) {
    Result<VerifyResult> r = VerifyUncancelled(given, source);
    if (o_.cancel && o_.cancel->load()) return Status::Cancelled("the verification was cancelled");
    return r;
  }

  Result<VerifyResult> VerifyUncancelled(const Problem& given, const std::string& source) {
    RG_RETURN_IF_ERROR(Init());
    RG_ASSIGN_OR_RETURN(verify::FittedTiming fit, Fit(given));
    RG_ASSIGN_OR_RETURN(const Problem p, WithEdgeCases(fit.problem));
    VerifyResult res;
    FillEnvironment(nullptr, "", &res);
    RG_ASSIGN_OR_RETURN(std::optional<fs::path> exe, BuildCandidate(p, source, &res));
    if (!exe) return res;
    verify::PlanOptions plan_options = CandidatePlan();
    plan_options.kernel_clock = KernelClock(p.spec);
    AddRungs(fit, &plan_options);
    // The emulator's calls of one test case run in processes of their own,
    // at once (the emulated program runs on one core): SplitPlans.
    const std::vector<std::string> plans = o_.emulated() ? verify::SplitPlans(p.spec, plan_options)
                                                         : std::vector{verify::MakePlan(p.spec, plan_options)};
    RunOutput run;
    std::string candidate_how;  // Timing::how
    {
      std::unique_ptr<verify::GpuLock> lock, machine;
      std::optional<verify::TimedScope> timed;
      // Timed runs on one GPU never overlap (other threads, processes, Slurm
      // tasks); correctness-only runs may share it. Nor do they overlap a
      // CPU timed phase on this machine (the machine's timing lock, shared).
      if (!o_.cpu_candidate() && !o_.emulated() && o_.timing) {
        RG_ASSIGN_OR_RETURN(lock, verify::GpuLock::Acquire(GpuLockPath(), o_.gpu_lock_timeout_s, o_.cancel));
        RG_ASSIGN_OR_RETURN(machine, TimingLock(true));
        candidate_how = "GPU lock " + GpuLockPath().string() + " (waited " + Seconds(lock->waited_s()) +
                        ") and " + TimedHow(*machine, "shared");
        timed.emplace();
      }
      // A CPU candidate is timed like the reference: alone.
      if (o_.cpu_candidate() && o_.timing) {
        RG_ASSIGN_OR_RETURN(machine, TimingLock(false));
        candidate_how = TimedHow(*machine, "exclusive");
        timed.emplace();
      }
      RG_ASSIGN_OR_RETURN(std::vector<RunOutput> parts, RunParts(*exe, plans, p.spec));
      if (ClassifyParts(parts, p.spec, &res)) return res;
      run = MergeParts(std::move(parts));
    }
    res.time_run_ms = run.process.wall_ms;
    const DriverRecords* recs = run.records ? &*run.records : nullptr;
    FillEnvironment(recs, run.process.sandbox, &res);
    if (verify::ClassifyRun(RunFactsOf(run, p.spec, res), &res)) return res;
    RG_ASSIGN_OR_RETURN(auto ref, ReferenceRecords(p, fit));
    verify::JudgeOptions jo;
    jo.emulate = o_.emulated();
    jo.timing_size_case = o_.emulated() && o_.emulate_timing_size;
    jo.timing_size_note = fit.note;
    for (const auto& r : fit.rungs) jo.timing_size_notes.push_back(r.note);
    if (!fit.rungs.empty()) jo.timing_size_smallest = verify::FormatSizes(fit.rungs.front().test.sizes);
    jo.timing = o_.timing;
    auto bytes = EstimateBytes(p.spec, p.spec.timing);
    jo.bytes_moved = bytes.ok() ? *bytes : 0;
    jo.kernel_form = KernelForm(p.spec);
    auto out_bytes = EstimateOutputBytes(p.spec, p.spec.timing);
    jo.output_bytes = out_bytes.ok() ? *out_bytes : 0;
    jo.device_l2_bytes = res.env.gpu_l2_bytes;
    jo.device_bytes_per_s = res.env.gpu_memory_bytes_per_s;
    verify::Judge(p.spec, *ref, *recs, jo, &res);
    if (res.test_case >= 0 && res.test_case < static_cast<int>(p.spec.tests.size()) &&
        !p.spec.tests[res.test_case].note.empty()) {
      res.detail += " (an edge case: " + p.spec.tests[res.test_case].note + ")";
    }
    if (res.candidate_timing) res.candidate_timing->how = candidate_how;
    if (res.kernel_timing) res.kernel_timing->how = candidate_how;
    if (res.reference_timing) res.reference_timing->how = ref->timed_how;
    if (res.ok() && o_.timing) verify::CheckTimingEvidence(*recs, run.process.records_arrivals, jo, &res);
    if (!res.ok()) res.log = TruncateMiddle(run.process.stdout_text + run.process.stderr_text, 4000);
    if (res.ok() && !o_.emulated() && !o_.cpu_candidate()) RG_RETURN_IF_ERROR(CrossCheck(given, source, p, *exe, &res));
    return res;
  }

  // ---- one verdict: the GPU's, the emulator's and compute-sanitizer's -------------
  //
  // A correct GPU verdict must also pass the CPU emulator's checks on the
  // test cases and edge cases; where the emulator does not vouch for the
  // candidate (it cannot run it) or always when configured, compute-
  // sanitizer's four tools on the GPU (docs/trust.md, "One verdict").
  Status CrossCheck(const Problem& given, const std::string& source, const Problem& p, const fs::path& exe,
                    VerifyResult* res) {
    bool vouched = false;
    std::string unchecked;
    if (o_.gpu_emulator_check) {
      RG_ASSIGN_OR_RETURN(VerifyResult emu, EmulatorVerifier()->Verify(given, source));
      if (emu.verdict == Verdict::kCorrect) {
        res->cross_checks.push_back("emulated");
        vouched = true;
      } else if (!Unverified(emu.verdict)) {
        verify::OverruleGpuVerdict(emu, "the CPU emulator's checks", res);
        return Status::Ok();
      } else {
        unchecked = "the emulator could not run it: " + emu.detail;
      }
    }
    const bool sanitize = o_.gpu_sanitizer == VerifyOptions::Sanitizer::kAlways ||
                          (o_.gpu_sanitizer == VerifyOptions::Sanitizer::kFallback && !vouched);
    if (sanitize) {
      RG_ASSIGN_OR_RETURN(std::optional<VerifyResult> san, Sanitize(p, exe));
      if (!san) {
        unchecked += std::string(unchecked.empty() ? "" : "; ") + "compute-sanitizer not found";
      } else if (san->verdict == Verdict::kCorrect) {
        res->cross_checks.push_back("sanitized");
        vouched = true;
      } else {
        verify::OverruleGpuVerdict(*san, "compute-sanitizer", res);
        return Status::Ok();
      }
    }
    if (!vouched && (o_.gpu_emulator_check || o_.gpu_sanitizer != VerifyOptions::Sanitizer::kOff)) {
      res->detail += " (GPU checks only: " + unchecked + ")";
    }
    return Status::Ok();
  }

  // The verifier of the emulator cross-check: this one's options, emulated,
  // on the test cases and edge cases (the GPU run checked the full size).
  Verifier* EmulatorVerifier() {
    std::call_once(emu_once_, [&] {
      VerifyOptions e = o_;
      e.run_mode = VerifyOptions::RunMode::kEmulate;
      e.timing = false;
      e.emulate_timing_size = false;
      e.cache_dir = cache_.string();
      emu_ = std::make_unique<Verifier>(e, runner_);
    });
    return emu_.get();
  }

  // compute-sanitizer's memcheck, racecheck, initcheck and synccheck on the
  // test cases (and edge cases), in the sandbox on the GPU: the first
  // failure, or kCorrect; nullopt where the toolkit has no compute-sanitizer.
  Result<std::optional<VerifyResult>> Sanitize(const Problem& p, const fs::path& exe) {
    const fs::path& tool = tc_.sanitizer;
    if (tool.empty()) return std::optional<VerifyResult>();
    verify::PlanOptions po = CandidatePlan();
    po.timing = false;
    po.timing_size_case = false;
    const std::string plan = verify::MakePlan(p.spec, po);
    RG_ASSIGN_OR_RETURN(auto ref, ReferenceRecords(p, verify::FittedTiming{p, false, "", {}}));
    for (const char* name : {"memcheck", "racecheck", "initcheck", "synccheck"}) {
      std::vector<std::string> wrapper = {tool.string(), "--tool", name, "--error-exitcode", "89", "--print-limit", "10"};
      RG_ASSIGN_OR_RETURN(RunOutput run,
                          RunDriver(exe, plan, p.spec, true, RunTrust::kUntrustedCandidate, wrapper, 20));
      VerifyResult r;
      FillEnvironment(run.records ? &*run.records : nullptr, run.process.sandbox, &r);
      if (verify::JudgeSanitizerRun(name, run.process, &r)) return std::optional<VerifyResult>(r);
      verify::RunFacts facts{run.process, run.records ? &*run.records : nullptr, run.records_error,
                             p.spec.time_limit_s * 20, r.env.archs, false};
      if (!verify::ClassifyRun(facts, &r)) {
        verify::JudgeOptions jo;
        jo.timing = false;
        verify::Judge(p.spec, *ref, *run.records, jo, &r);
      }
      if (!r.ok()) {
        r.detail = std::string("under compute-sanitizer ") + name + ": " + r.detail;
        return std::optional<VerifyResult>(r);
      }
    }
    VerifyResult clean;
    clean.verdict = Verdict::kCorrect;
    return std::optional<VerifyResult>(clean);
  }

  // ---- edge cases (verify/spec/edge_cases.h) -------------------------------------------

  // `p` with the edge cases its reference answers appended to its tests.
  Result<Problem> WithEdgeCases(const Problem& p) {
    if (!o_.edge_cases) return p;
    std::vector<TestCase> edges = verify::EdgeCases(p.spec);
    if (edges.empty()) return p;
    RG_ASSIGN_OR_RETURN(std::vector<size_t> accepted, AcceptedEdges(p, edges));
    Problem q = p;
    for (size_t i : accepted) q.spec.tests.push_back(edges[i]);
    return q;
  }

  // Which of `edges` the reference answers: it finishes them, writes every
  // output with finite values, twice alike, and leaves its inputs alone.
  // Found once per problem and toolchain (memo, then cache_/ref/KEY/edges.txt);
  // keyed by what decides it (reference, driver, the edge plan), not the
  // spec text, so held-out seeds reuse it.
  Result<std::vector<size_t>> AcceptedEdges(const Problem& p, const std::vector<TestCase>& edges) {
    Problem q = p;
    q.spec.tests = edges;
    verify::PlanOptions po;
    po.timing = false;
    const std::string plan = verify::MakePlan(q.spec, po);
    Hasher h;
    h.Add("regrapht-edges-v2").Add(p.reference_source).Add(plan).Add(ToolKey()).Add(machine_);
    for (const auto& f : o_.reference_flags) h.Add(f);
    RG_ASSIGN_OR_RETURN(std::string driver, verify::GenerateDriver(p.spec));
    h.Add(std::string(verify::DriverRuntimeHeader())).Add(driver);
    const std::string key = h.Hex();
    {
      std::lock_guard<std::mutex> lock(ref_mu_);
      if (auto it = edge_memo_.find(key); it != edge_memo_.end()) return it->second;
    }
    const fs::path file = cache_ / "ref" / key / "edges.txt";
    std::vector<size_t> accepted;
    if (auto text = ReadFile(file); text.ok()) {
      for (const auto& w : Split(*text, ' ')) {
        if (auto v = ParseInt(w); v && *v >= 0 && static_cast<size_t>(*v) < edges.size()) accepted.push_back(*v);
      }
    } else {
      RG_ASSIGN_OR_RETURN(accepted, RunEdges(q, edges.size()));
      std::string out;
      for (size_t i : accepted) out += (out.empty() ? "" : " ") + std::to_string(i);
      RG_RETURN_IF_ERROR(WriteFileAtomic(file, out));
    }
    std::lock_guard<std::mutex> lock(ref_mu_);
    edge_memo_[key] = accepted;
    return accepted;
  }

  // Runs the reference on q's tests (the edge cases), restarting after a
  // case it does not finish; the indices of the cases it answered cleanly.
  Result<std::vector<size_t>> RunEdges(const Problem& q, size_t n) {
    RG_ASSIGN_OR_RETURN(BuildOutcome exe, BuildReferenceExe(q));
    std::vector<size_t> accepted;
    size_t start = 0;
    while (start < n) {
      Problem part = q;
      part.spec.tests.assign(q.spec.tests.begin() + static_cast<long>(start), q.spec.tests.end());
      verify::PlanOptions po;
      po.timing = false;
      RG_ASSIGN_OR_RETURN(RunOutput run,
                          RunDriver(exe.artifact, verify::MakePlan(part.spec, po), part.spec, false,
                                                     RunTrust::kTrustedReference));
      // The case a failed run stopped in: dropped, and the rest run again.
      int died_in = -1;
      if (!run.process.ok()) {
        died_in = 0;
        if (run.records && run.records->last_call) {
          auto at = verify::CaseCallOf(*run.records->last_call);
          died_in = at ? at->first : 0;
        }
      }
      for (size_t j = 0; j < part.spec.tests.size(); ++j) {
        if (died_in >= 0 && static_cast<int>(j) >= died_in) break;
        if (run.records && EdgeAnswered(part.spec, *run.records, static_cast<int>(j))) accepted.push_back(start + j);
      }
      if (died_in < 0) break;
      spdlog::info("reference of {}: no answer for edge case '{}' ({}); dropped", q.spec.name,
                   q.spec.tests[start + died_in].note, run.process.Describe());
      start += static_cast<size_t>(died_in) + 1;
    }
    return accepted;
  }

  // Whether the reference's records answer case `c` cleanly.
  static bool EdgeAnswered(const ProblemSpec& spec, const DriverRecords& r, int c) {
    for (const auto& m : r.mutated) {
      if (StartsWith(m, std::to_string(c) + " ")) return false;
    }
    auto check = [&](const std::string& name, const ElementType& type) {
      const ArrayRecord* r0 = r.Find(c, 0, name);
      const ArrayRecord* r1 = r.Find(c, 1, name);
      return r0 && r1 && r0->bytes == r1->bytes && verify::FindPoison(spec, type, *r0) < 0 &&
             verify::FindNonFinite(spec, type, *r0) < 0;
    };
    for (const auto& a : spec.args) {
      if (a.is_checked() && !check(a.name, a.type)) return false;
    }
    return !spec.returns || check("return", *spec.returns);
  }

  Result<Timing> CheckReference(const Problem& given) {
    RG_RETURN_IF_ERROR(Init());
    RG_ASSIGN_OR_RETURN(verify::FittedTiming fit, Fit(given));
    RG_ASSIGN_OR_RETURN(auto ref, ReferenceRecords(fit.problem, fit));
    if (ref->times_ms.empty()) return Timing{};
    Timing t = Summarize(ref->times_ms);
    t.how = ref->timed_how;
    return t;
  }

  Status Prepare(const Problem& p, const std::string& source) {
    RG_RETURN_IF_ERROR(Init());
    VerifyResult res;
    RG_ASSIGN_OR_RETURN(std::optional<fs::path> exe, BuildCandidate(p, source, &res));
    (void)exe;
    RG_ASSIGN_OR_RETURN(BuildOutcome ref, BuildReferenceExe(p));
    (void)ref;
    return Status::Ok();
  }

  Result<VerifyResult> CompileOnly(const Problem& p, const std::string& source, bool device_only,
                                   const BuildOutcome* device_code = nullptr) {
    RG_RETURN_IF_ERROR(Init());
    VerifyResult res;
    FillEnvironment(nullptr, "", &res);
    RG_ASSIGN_OR_RETURN(std::optional<fs::path> exe, BuildCandidate(p, source, &res, device_only, device_code));
    if (!exe) return res;
    verify::JudgeCompiledOnly(device_only, &res);
    return res;
  }

  // Sources a batch may hold (verify/build/batch_compile.h): more saves less (the
  // fixed cost is already shared) and makes a failing batch costlier.
  static constexpr size_t kMaxBatch = 8;

  Result<std::vector<VerifyResult>> CompileOnlyMany(const std::vector<std::pair<const Problem*, std::string>>& items) {
    RG_RETURN_IF_ERROR(Init());
    std::vector<std::optional<verify::BatchUnit>> units(items.size());
    for (size_t i = 0; i < items.size() && !o_.cpu_candidate() && tc_.has_nvcc(); ++i) {
      if (!KernelForm(items[i].first->spec)) units[i] = verify::BatchUnitOf(items[i].second);
    }
    // A batch that compiles proves each of its sources compiles alone; the
    // log is not split by source, so proven sources carry no ptxas figures.
    std::map<size_t, BuildOutcome> proven;
    for (const auto& group : verify::PlanBatches(units, kMaxBatch)) {
      std::vector<const verify::BatchUnit*> members;
      std::vector<std::string> names;
      for (size_t i : group) {
        members.push_back(&*units[i]);
        names.push_back("candidate" + std::to_string(i) + ".cu");
      }
      BuildRequest req;
      req.label = "candidate-batch";
      req.files = {{"batch.cu", verify::BatchSource(members, names)}};
      req.argv = NvccArgv(true, "batch.cu", "batch.fatbin");
      req.output = "batch.fatbin";
      req.key_extra = ToolKey();
      RG_ASSIGN_OR_RETURN(BuildOutcome out, builds_->Build(req));
      if (!out.ok) continue;  // each of them is compiled alone below
      out.log.clear();
      out.time_ms /= static_cast<double>(group.size());
      for (size_t i : group) proven[i] = out;
    }
    std::vector<VerifyResult> results;
    for (size_t i = 0; i < items.size(); ++i) {
      auto it = proven.find(i);
      RG_ASSIGN_OR_RETURN(VerifyResult r, CompileOnly(*items[i].first, items[i].second, true,
                                                      it == proven.end() ? nullptr : &it->second));
      results.push_back(std::move(r));
    }
    return results;
  }

 private:
  VerifyOptions o_;
  CommandRunner* runner_;
  std::unique_ptr<CommandRunner> pinning_runner_;  // wraps the given runner when timed phases are pinned
  std::optional<verify::TimingCpus> timing_cpus_;
  fs::path cache_;
  std::once_flag init_once_;
  std::once_flag gpu_lock_once_;
  std::once_flag emu_once_;
  std::unique_ptr<Verifier> emu_;  // the emulator cross-check (EmulatorVerifier)
  std::map<std::string, std::vector<size_t>> edge_memo_;  // under ref_mu_
  fs::path gpu_lock_path_;
  Status init_status_;
  verify::Toolchain tc_;
  std::unique_ptr<BuildCache> builds_;
  verify::ToolchainFolders folders_;  // toolchain folders outside /usr, visible in the sandbox
  std::string host_cpu_;
  std::string machine_;  // HostMachineKey: cached timings never travel between machines
  std::once_flag timing_lock_once_;
  fs::path timing_lock_path_;
  std::mutex ref_mu_;
  std::map<std::string, std::shared_ptr<const DriverRecords>> ref_memo_;
};

Verifier::Verifier(VerifyOptions options) : options_(std::move(options)) {
  SubprocessOptions so = SandboxRunnerOptions(options_);
  so.cancel = options_.cancel;
  owned_runner_ = NewSubprocessRunner(so);
  impl_ = std::make_unique<Impl>(options_, owned_runner_.get());
}

Verifier::Verifier(VerifyOptions options, CommandRunner* runner)
    : options_(std::move(options)), impl_(std::make_unique<Impl>(options_, runner)) {}

Verifier::~Verifier() = default;

Result<VerifyResult> Verifier::Verify(const Problem& problem, const std::string& candidate_source) {
  return impl_->Verify(problem, candidate_source);
}

Result<Timing> Verifier::CheckReference(const Problem& problem) { return impl_->CheckReference(problem); }

Result<std::vector<VerifyResult>> Verifier::CompileOnlyMany(
    const std::vector<std::pair<const Problem*, std::string>>& items) {
  return impl_->CompileOnlyMany(items);
}

Result<VerifyResult> Verifier::CompileOnly(const Problem& problem, const std::string& candidate_source,
                                           bool device_only) {
  return impl_->CompileOnly(problem, candidate_source, device_only);
}

Status Verifier::Prepare(const Problem& problem, const std::string& candidate_source) {
  return impl_->Prepare(problem, candidate_source);
}

}  // namespace regrapht
