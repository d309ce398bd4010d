#include "graph/llm_relabeler.h"

#include <map>

#include "core/json_util.h"
#include "core/strings.h"
#include "graph/label_text.h"
#include "llm/extract.h"

namespace regrapht {
namespace {

Status AnswerError(const std::string& what) {
  return Status::InvalidArgument("llm relabeler: " + what);
}

// The list of labels inside the answer: the answer itself, or the one array
// in an object wrapped around it ({"labels": [...]}).
const Json* LabelList(const Json& answer) {
  if (answer.is_array()) return &answer;
  if (!answer.is_object()) return nullptr;
  const Json* found = nullptr;
  for (const auto& item : answer.items()) {
    if (!item.value().is_array()) continue;
    if (found != nullptr) return nullptr;  // two lists: which one?
    found = &item.value();
  }
  return found;
}

}  // namespace

LlmRelabeler::LlmRelabeler(LlmBackend* backend, const Taxonomy* taxonomy,
                           LlmRelabelerOptions options)
    : backend_(backend), taxonomy_(taxonomy), options_(std::move(options)) {}

std::vector<std::string> LlmRelabeler::MethodList(const RelabelInput& input) const {
  std::vector<std::string> out;
  std::map<std::string, bool> seen;  // NormalizeLabel -> listed
  for (const Technique& t : taxonomy_->techniques()) {
    if (seen.emplace(NormalizeLabel(t.name), true).second) out.push_back(t.name);
  }
  for (const std::string& m : input.graph_methods) {
    if (seen.emplace(NormalizeLabel(m), true).second) out.push_back(m);
  }
  return out;
}

std::string LlmRelabeler::UserMessage(const RelabelInput& input) const {
  OrderedJson j;
  j["methods"] = MethodList(input);
  OrderedJson process = OrderedJson::array();
  for (const TrajectoryStep& s : input.trajectory->steps) {
    process.push_back(OrderedJson{{"method", s.method}, {"detail", s.detail}});
  }
  j["process"] = std::move(process);
  return JsonLine(j, 1);
}

Result<std::vector<LabelDecision>> LlmRelabeler::ParseAnswer(std::string_view reply,
                                                             const RelabelInput& input) const {
  const auto& steps = input.trajectory->steps;
  llm::JsonExtraction answer = llm::ExtractJson(reply);
  if (!answer.found) {
    return AnswerError("unreadable answer (" + answer.reason + "): " +
                       TruncateMiddle(Trim(reply), 300));
  }
  const Json* labels = LabelList(answer.value);
  if (labels == nullptr) {
    return AnswerError("expected a JSON list of {existed, method}, got " +
                       TruncateMiddle(JsonLine(answer.value), 300));
  }
  if (labels->size() != steps.size()) {
    return AnswerError(std::to_string(labels->size()) + " labels for " +
                       std::to_string(steps.size()) + " steps");
  }
  // Names in the list -> taxonomy id ("" for graph methods outside it).
  std::map<std::string, std::pair<std::string, std::string>> listed;  // normalized -> (name, id)
  for (const std::string& name : MethodList(input)) listed.emplace(NormalizeLabel(name), std::pair{name, ""});
  for (const Technique& t : taxonomy_->techniques()) listed[NormalizeLabel(t.name)].second = t.id;

  std::vector<LabelDecision> out;
  for (size_t i = 0; i < steps.size(); ++i) {
    const Json& item = (*labels)[i];
    std::string where = "steps[" + std::to_string(i) + "]";
    if (!item.is_object() || !item.contains("existed") || !item.contains("method") ||
        !item["method"].is_string()) {
      return AnswerError(where + ": expected {\"existed\": ..., \"method\": \"...\"}, got " +
                         TruncateMiddle(JsonLine(item), 200));
    }
    std::string existed;
    if (item["existed"].is_boolean()) {
      existed = item["existed"].get<bool>() ? "yes" : "no";
    } else if (item["existed"].is_string()) {
      existed = ToLower(Trim(item["existed"].get<std::string>()));
    }
    if (existed != "yes" && existed != "no") {
      return AnswerError(where + ": \"existed\" must be \"yes\" or \"no\", got " +
                         JsonLine(item["existed"]));
    }
    std::string answered = item["method"].get<std::string>();
    LabelDecision d;
    d.method = steps[i].method;
    d.rule = LabelRule::kExternal;
    d.note = "model: " + JsonLine(item);
    auto unmatched = [&] {
      d.outcome = options_.unknown == UnknownLabelPolicy::kFlagNew ? LabelOutcome::kNewTechnique
                                                                   : LabelOutcome::kRejected;
    };
    if (existed == "no") {
      unmatched();
      out.push_back(std::move(d));
      continue;
    }
    auto it = listed.find(NormalizeLabel(answered));
    if (answered.empty() || it == listed.end()) {
      return AnswerError(where + " (\"" + steps[i].method + "\"): \"yes\" names \"" + answered +
                         "\", which is not in the methods list");
    }
    const auto& [name, id] = it->second;
    d.phrase = name;
    d.score = 1;
    if (id.empty()) {
      d.closest = name;  // a flagged node of the graph: left to review
      unmatched();
    } else {
      d.outcome = LabelOutcome::kMatched;
      d.technique_id = id;
    }
    out.push_back(std::move(d));
  }
  return out;
}

Result<std::vector<LabelDecision>> LlmRelabeler::Relabel(const RelabelInput& input) {
  if (input.trajectory == nullptr) return Status::InvalidArgument("relabel: no trajectory");
  if (Trim(options_.system_prompt).empty()) {
    return Status::InvalidArgument("llm relabeler: no system prompt");
  }
  ChatRequest request;
  request.messages = {{Role::kSystem, options_.system_prompt}, {Role::kUser, UserMessage(input)}};
  request.sampling = options_.sampling;
  auto response = backend_->Chat(request);
  if (!response.ok()) return response.status().WithContext("llm relabeler");
  if (response->choices.empty()) return AnswerError("the backend returned no answer");
  return ParseAnswer(response->choices.front().text, input);
}

}  // namespace regrapht
