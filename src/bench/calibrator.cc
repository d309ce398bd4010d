// ReadSuite and TimingCalibrator (regrapht/suite.h): `suite check`'s view
// of a suite and `suite calibrate` over a folder of problems.
#include <algorithm>
#include <system_error>

#include "bench/calibrate.h"
#include "bench/suite.h"
#include "core/fs.h"
#include "regrapht/suite.h"
#include "verify/build/toolchain.h"

namespace regrapht {

Result<SuiteContents> ReadSuite(const std::string& dir) {
  RG_ASSIGN_OR_RETURN(bench::Suite suite, bench::LoadSuite(dir));
  SuiteContents out;
  out.name = suite.name;
  for (const auto& p : suite.problems)
    out.problems.push_back({p.problem.spec.name, p.problem.dir.string(), p.tier});
  return out;
}

namespace {

// The problem folders of DIR: a suite's problems (suite.json), else every
// subfolder holding a problem.json (problems/).
Result<std::vector<Problem>> ProblemsOf(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return Status::NotFound(dir + ": no such folder");
  std::vector<Problem> out;
  if (fs::exists(fs::path(dir) / "suite.json", ec)) {
    RG_ASSIGN_OR_RETURN(bench::Suite suite, bench::LoadSuite(dir));
    for (auto& p : suite.problems) out.push_back(std::move(p.problem));
    return out;
  }
  std::vector<fs::path> dirs;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (e.is_directory() && fs::exists(e.path() / "problem.json")) dirs.push_back(e.path());
  }
  std::sort(dirs.begin(), dirs.end());
  if (dirs.empty())
    return Status::InvalidArgument(dir + ": neither a suite (suite.json) nor a folder of problems");
  for (const auto& d : dirs) {
    RG_ASSIGN_OR_RETURN(Problem p, LoadProblem(d));
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace

struct TimingCalibrator::Impl {
  TimingCalibratorOptions options;
  std::vector<Problem> problems;
  size_t next = 0;
  std::string cpu;
  std::unique_ptr<Verifier> verifier;
  bench::CalibrateOptions co;
  const Problem* last = nullptr;
  std::optional<bench::Calibration> last_calibration;
};

TimingCalibrator::TimingCalibrator(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
TimingCalibrator::~TimingCalibrator() = default;

Result<std::unique_ptr<TimingCalibrator>> TimingCalibrator::Open(
    const std::string& dir, const TimingCalibratorOptions& options) {
  if (options.verify.run_mode != VerifyOptions::RunMode::kGpu || !options.verify.timing) {
    return Status::InvalidArgument(
        "suite calibrate: times the reference; --emulate, --cpu-candidate and "
        "--no-timing do not apply");
  }
  auto impl = std::make_unique<Impl>();
  impl->options = options;
  RG_ASSIGN_OR_RETURN(impl->problems, ProblemsOf(dir));
  for (const auto& name : options.only) {
    if (std::none_of(impl->problems.begin(), impl->problems.end(),
                     [&](const Problem& p) { return p.spec.name == name; })) {
      return Status::NotFound("--only: no problem named \"" + name + "\" in " + dir);
    }
  }
  VerifyOptions vo = options.verify;
  // The reference's own protocol, shortened: one warm-up and two repetitions
  // are enough to place a size within a factor of three.
  vo.reference_warmup = 1;
  vo.reference_min_reps = 2;
  vo.reference_max_reps = 2;
  impl->verifier = NewVerifier(vo);
  impl->co.target_ms = options.target_ms;
  impl->co.max_steps = options.max_steps;
  impl->co.param_max = options.param_max;
  impl->co.max_bytes = options.max_bytes;
  Verifier* verifier = impl->verifier.get();
  impl->co.time_reference = [verifier](const Problem& p) -> Result<double> {
    RG_ASSIGN_OR_RETURN(Timing t, verifier->CheckReference(p));
    return t.median_ms;
  };
  impl->cpu = verify::HostCpuModel();
  return std::unique_ptr<TimingCalibrator>(new TimingCalibrator(std::move(impl)));
}

const std::string& TimingCalibrator::cpu() const { return impl_->cpu; }

int TimingCalibrator::problems() const {
  return static_cast<int>(impl_->options.only.empty() ? impl_->problems.size()
                                                      : impl_->options.only.size());
}

Result<std::optional<TimingCalibration>> TimingCalibrator::Next() {
  Impl& m = *impl_;
  const auto& only = m.options.only;
  while (m.next < m.problems.size()) {
    const Problem& p = m.problems[m.next++];
    if (!only.empty() && std::find(only.begin(), only.end(), p.spec.name) == only.end()) continue;
    m.last = &p;
    m.last_calibration.reset();
    Result<bench::Calibration> c = bench::CalibrateProblem(p, m.co);
    TimingCalibration out;
    if (!c.ok()) {
      out.problem = p.spec.name;
      out.old_sizes = bench::FormatSizes(p.spec.timing.sizes);
      out.error = c.status().message();
      return std::optional<TimingCalibration>(std::move(out));
    }
    out.problem = c->problem;
    out.old_sizes = bench::FormatSizes(c->old_sizes);
    out.new_sizes = bench::FormatSizes(c->new_sizes);
    out.old_ms = c->old_ms;
    out.new_ms = c->new_ms;
    out.changed = c->changed;
    out.note = c->note;
    m.last_calibration = std::move(*c);
    return std::optional<TimingCalibration>(std::move(out));
  }
  return std::optional<TimingCalibration>();
}

Status TimingCalibrator::WriteLast() {
  Impl& m = *impl_;
  if (m.last == nullptr || !m.last_calibration) {
    return Status::FailedPrecondition("suite calibrate: no calibration to write");
  }
  return bench::WriteCalibration(*m.last, *m.last_calibration);
}

}  // namespace regrapht
