#include "verify/result_json.h"

namespace regrapht {

OrderedJson TimingToJson(const Timing& t, bool with_samples) {
  OrderedJson j = {{"median_ms", t.median_ms}, {"p25_ms", t.p25_ms}, {"p75_ms", t.p75_ms},
                   {"min_ms", t.min_ms},       {"max_ms", t.max_ms}, {"mean_ms", t.mean_ms},
                   {"stddev_ms", t.stddev_ms}, {"reps", t.reps}};
  if (with_samples) j["samples_ms"] = t.samples_ms;
  if (!t.how.empty()) j["how"] = t.how;
  return j;
}

static Timing TimingFromJson(const Json& j) {
  Timing t;
  t.median_ms = j.value("median_ms", 0.0);
  t.p25_ms = j.value("p25_ms", 0.0);
  t.p75_ms = j.value("p75_ms", 0.0);
  t.min_ms = j.value("min_ms", 0.0);
  t.max_ms = j.value("max_ms", 0.0);
  t.mean_ms = j.value("mean_ms", 0.0);
  t.stddev_ms = j.value("stddev_ms", 0.0);
  t.reps = j.value("reps", 0);
  if (j.contains("samples_ms")) t.samples_ms = j["samples_ms"].get<std::vector<double>>();
  t.how = j.value("how", "");
  return t;
}

OrderedJson EnvironmentToJson(const Environment& e) {
  OrderedJson j = {{"gpu_name", e.gpu_name},
          {"gpu_cc", e.gpu_cc},
          {"gpu_sms", e.gpu_sms},
          {"gpu_l2_bytes", e.gpu_l2_bytes},
          {"driver_version", e.driver_version},
          {"cuda_runtime_version", e.cuda_runtime_version},
          {"cuda_toolkit_version", e.cuda_toolkit_version},
          {"host_cpu", e.host_cpu},
          {"host_compiler", e.host_compiler},
          {"nvcc_flags", e.nvcc_flags},
          {"reference_flags", e.reference_flags},
          {"archs", e.archs},
          {"sandbox", e.sandbox},
          {"regrapht_version", e.regrapht_version}};
  if (e.gpu_memory_bytes_per_s > 0) j["gpu_memory_bytes_per_s"] = e.gpu_memory_bytes_per_s;
  return j;
}

OrderedJson VerifyResultToJson(const VerifyResult& r, bool with_samples) {
  OrderedJson j;
  j["verdict"] = std::string(VerdictName(r.verdict));
  j["detail"] = r.detail;
  j["speedup"] = r.speedup;
  j["reward"] = Reward(r);
  j["transfers_timed"] = r.transfers_timed;
  j["form"] = r.form;
  j["evidence"] = std::string(EvidenceLevel(r));
  if (r.emulated) j["emulated"] = true;
  if (!r.cross_checks.empty()) j["cross_checks"] = r.cross_checks;
  if (r.kernel_timing) {
    j["kernel_timing"] = TimingToJson(*r.kernel_timing, with_samples);
    j["kernel_speedup"] = r.kernel_speedup;
  }
  if (r.candidate_timing) j["candidate_timing"] = TimingToJson(*r.candidate_timing, with_samples);
  if (r.reference_timing) j["reference_timing"] = TimingToJson(*r.reference_timing, with_samples);
  if (r.verdict == Verdict::kWrongAnswer || r.verdict == Verdict::kNondeterministic) {
    j["mismatch"] = {{"test_case", r.test_case}, {"output", r.output}, {"index", r.index},
                     {"expected", r.expected}, {"got", r.got}};
  }
  if (!r.findings.empty()) j["findings"] = r.findings;
  OrderedJson kernels = OrderedJson::array();
  for (const auto& k : r.kernels) {
    kernels.push_back({{"kernel", k.kernel}, {"arch", k.arch}, {"registers", k.registers},
                       {"shared_bytes", k.shared_bytes}, {"constant_bytes", k.constant_bytes},
                       {"stack_bytes", k.stack_bytes}, {"spill_store_bytes", k.spill_store_bytes},
                       {"spill_load_bytes", k.spill_load_bytes}});
  }
  j["kernels"] = kernels;
  j["candidate_hash"] = r.candidate_hash;
  j["time_compile_ms"] = r.time_compile_ms;
  j["time_run_ms"] = r.time_run_ms;
  j["compile_cached"] = r.compile_cached;
  j["environment"] = EnvironmentToJson(r.env);
  if (!r.log.empty()) j["log"] = r.log;
  return j;
}

Result<VerifyResult> VerifyResultFromJson(const Json& j) {
  if (!j.is_object()) return Status::InvalidArgument("verify result: expected an object");
  VerifyResult r;
  try {
    auto v = ParseVerdict(j.value("verdict", ""));
    if (!v) return Status::InvalidArgument("verify result: unknown verdict " + j.value("verdict", ""));
    r.verdict = *v;
    r.detail = j.value("detail", "");
    r.speedup = j.value("speedup", 0.0);
    r.transfers_timed = j.value("transfers_timed", true);
    r.emulated = j.value("emulated", false);
    if (j.contains("cross_checks") && j["cross_checks"].is_array()) {
      for (const auto& c : j["cross_checks"]) {
        if (c.is_string()) r.cross_checks.push_back(c.get<std::string>());
      }
    }
    r.form = j.value("form", std::string("dropin"));
    if (j.contains("kernel_timing")) r.kernel_timing = TimingFromJson(j["kernel_timing"]);
    r.kernel_speedup = j.value("kernel_speedup", 0.0);
    if (j.contains("candidate_timing")) r.candidate_timing = TimingFromJson(j["candidate_timing"]);
    if (j.contains("reference_timing")) r.reference_timing = TimingFromJson(j["reference_timing"]);
    if (j.contains("mismatch")) {
      const auto& m = j["mismatch"];
      r.test_case = m.value("test_case", -1);
      r.output = m.value("output", "");
      r.index = m.value("index", int64_t{-1});
      r.expected = m.value("expected", "");
      r.got = m.value("got", "");
    }
    if (j.contains("findings")) r.findings = j["findings"].get<std::vector<std::string>>();
    if (j.contains("kernels")) {
      for (const auto& k : j["kernels"]) {
        r.kernels.push_back({k.value("kernel", ""), k.value("arch", ""), k.value("registers", 0),
                             k.value("shared_bytes", int64_t{0}), k.value("constant_bytes", int64_t{0}),
                             k.value("stack_bytes", int64_t{0}), k.value("spill_store_bytes", int64_t{0}),
                             k.value("spill_load_bytes", int64_t{0})});
      }
    }
    r.candidate_hash = j.value("candidate_hash", "");
    r.time_compile_ms = j.value("time_compile_ms", 0.0);
    r.time_run_ms = j.value("time_run_ms", 0.0);
    r.compile_cached = j.value("compile_cached", false);
    if (j.contains("environment")) {
      const auto& e = j["environment"];
      r.env.gpu_name = e.value("gpu_name", "");
      r.env.gpu_cc = e.value("gpu_cc", "");
      r.env.gpu_sms = e.value("gpu_sms", 0);
      r.env.gpu_l2_bytes = e.value("gpu_l2_bytes", int64_t{0});
      r.env.gpu_memory_bytes_per_s = e.value("gpu_memory_bytes_per_s", 0.0);
      r.env.driver_version = e.value("driver_version", "");
      r.env.cuda_runtime_version = e.value("cuda_runtime_version", "");
      r.env.cuda_toolkit_version = e.value("cuda_toolkit_version", "");
      r.env.host_cpu = e.value("host_cpu", "");
      r.env.host_compiler = e.value("host_compiler", "");
      r.env.nvcc_flags = e.value("nvcc_flags", "");
      r.env.reference_flags = e.value("reference_flags", "");
      r.env.archs = e.value("archs", "");
      r.env.sandbox = e.value("sandbox", "");
      r.env.regrapht_version = e.value("regrapht_version", "");
    }
    r.log = j.value("log", "");
  } catch (const Json::exception& e) {
    return Status::InvalidArgument(std::string("verify result: ") + e.what());
  }
  return r;
}

}  // namespace regrapht
