#include "llm/speed.h"

#include <unistd.h>

#include <algorithm>
#include <ctime>
#include <fstream>
#include <thread>

#include "core/json_util.h"
#include "core/log.h"
#include "core/strings.h"
#include "regrapht/llm.h"

namespace regrapht::llm {
namespace {

std::string CpuModel() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (StartsWith(line, "model name")) {
      auto colon = line.find(':');
      if (colon != std::string::npos) return std::string(Trim(line.substr(colon + 1)));
    }
  }
  return "unknown CPU";
}

// A figure of `in` wins over `base` where it is set.
void Merge(ModelSpeed& base, const ModelSpeed& in) {
  auto take = [](double& b, double v) {
    if (v > 0) b = v;
  };
  take(base.prompt_tok_s, in.prompt_tok_s);
  take(base.generate_tok_s, in.generate_tok_s);
  take(base.search_generate_tok_s, in.search_generate_tok_s);
  take(base.prompt_tokens, in.prompt_tokens);
  if (!in.measured_by.empty()) base.measured_by = in.measured_by;
  if (!in.measured_at.empty()) base.measured_at = in.measured_at;
}

}  // namespace

std::string MachineId() {
  char host[256] = {0};
  if (::gethostname(host, sizeof host - 1) != 0) std::snprintf(host, sizeof host, "localhost");
  return std::string(host) + " / " + CpuModel() + " / " +
         std::to_string(std::max(1u, std::thread::hardware_concurrency())) + " CPUs";
}

std::string UtcNowIso() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

SpeedCache::Contents SpeedCache::Load() const {
  Contents c;
  if (!fs::exists(path_)) return c;
  auto text = ReadInputFile(path_, 16 << 20);
  auto j = text.ok() ? ParseJson(*text, path_.string()) : Result<Json>(text.status());
  if (!j.ok() || !j->is_object()) {
    spdlog::warn("{}: unreadable speed cache, ignored: {}", path_.string(),
            j.ok() ? std::string("not a JSON object") : j.status().ToString());
    return c;
  }
  for (const auto& m : j->value("models", Json::array())) {
    if (!m.is_object()) continue;
    ModelSpeed s;
    s.model = m.value("model", "");
    s.machine = m.value("machine", "");
    s.prompt_tok_s = m.value("prompt_tok_s", 0.0);
    s.generate_tok_s = m.value("generate_tok_s", 0.0);
    s.search_generate_tok_s = m.value("search_generate_tok_s", 0.0);
    s.prompt_tokens = m.value("prompt_tokens", 0.0);
    s.measured_by = m.value("measured_by", "");
    s.measured_at = m.value("measured_at", "");
    if (!s.model.empty()) c.models.push_back(std::move(s));
  }
  for (const auto& k : j->value("checks", Json::array())) {
    if (!k.is_object()) continue;
    CheckSpeed s;
    s.machine = k.value("machine", "");
    s.mode = k.value("mode", "");
    s.seconds = k.value("seconds", 0.0);
    s.count = k.value("count", 0);
    s.measured_at = k.value("measured_at", "");
    if (!s.mode.empty() && s.seconds > 0) c.checks.push_back(std::move(s));
  }
  return c;
}

Status SpeedCache::Save(const Contents& c) const {
  OrderedJson j;
  j["about"] = "regrapht's measured speeds per model and machine (docs/llm.md \"Speed and estimates\")";
  j["models"] = OrderedJson::array();
  for (const auto& s : c.models) {
    j["models"].push_back({{"model", s.model},
                           {"machine", s.machine},
                           {"prompt_tok_s", s.prompt_tok_s},
                           {"generate_tok_s", s.generate_tok_s},
                           {"search_generate_tok_s", s.search_generate_tok_s},
                           {"prompt_tokens", s.prompt_tokens},
                           {"measured_by", s.measured_by},
                           {"measured_at", s.measured_at}});
  }
  j["checks"] = OrderedJson::array();
  for (const auto& s : c.checks) {
    j["checks"].push_back({{"machine", s.machine},
                           {"mode", s.mode},
                           {"seconds", s.seconds},
                           {"count", s.count},
                           {"measured_at", s.measured_at}});
  }
  return WriteFileAtomic(path_, DumpJson(j));
}

std::optional<ModelSpeed> SpeedCache::FindModel(const std::string& model, const std::string& machine) const {
  for (auto& s : Load().models) {
    if (s.model == model && s.machine == machine) return s;
  }
  return std::nullopt;
}

std::optional<CheckSpeed> SpeedCache::FindCheck(const std::string& machine, const std::string& mode) const {
  for (auto& s : Load().checks) {
    if (s.machine == machine && s.mode == mode) return s;
  }
  return std::nullopt;
}

Status SpeedCache::PutModel(const ModelSpeed& speed) {
  Contents c = Load();
  for (auto& s : c.models) {
    if (s.model == speed.model && s.machine == speed.machine) {
      Merge(s, speed);
      return Save(c);
    }
  }
  c.models.push_back(speed);
  return Save(c);
}

Status SpeedCache::PutCheck(const CheckSpeed& check) {
  Contents c = Load();
  for (auto& s : c.checks) {
    if (s.machine == check.machine && s.mode == check.mode) {
      s = check;
      return Save(c);
    }
  }
  c.checks.push_back(check);
  return Save(c);
}

SearchEstimate EstimateSearch(const ModelSpeed& speed, const std::optional<CheckSpeed>& check, int generations,
                              int max_tokens) {
  SearchEstimate e;
  e.generate_tok_s = speed.search_generate_tok_s > 0 ? speed.search_generate_tok_s : speed.generate_tok_s;
  e.prompt_tok_s = speed.prompt_tok_s;
  e.prompt_tokens = speed.prompt_tokens > 0 ? speed.prompt_tokens : kDefaultPromptTokens;
  e.per_generation_s = max_tokens / std::max(e.generate_tok_s, 1e-9);
  if (e.prompt_tok_s > 0) e.per_generation_s += e.prompt_tokens / e.prompt_tok_s;
  e.check_s = check ? check->seconds : 0;
  e.seconds = generations * (e.per_generation_s + e.check_s);
  return e;
}

}  // namespace regrapht::llm

namespace regrapht {

Result<fs::path> RecordModelSpeed(const LlmBackend& backend, double prompt_tok_s,
                                  double generate_tok_s, const std::string& measured_by) {
  llm::ModelSpeed speed;
  speed.model = backend.ModelId();
  speed.machine = llm::MachineId();
  speed.prompt_tok_s = prompt_tok_s;
  speed.generate_tok_s = generate_tok_s;
  speed.measured_by = measured_by;
  speed.measured_at = llm::UtcNowIso();
  llm::SpeedCache cache(CacheDir() / "speed.json");
  RG_RETURN_IF_ERROR(cache.PutModel(speed));
  return cache.path();
}

}  // namespace regrapht
