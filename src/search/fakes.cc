#include "search/fakes.h"

#include "core/strings.h"

namespace regrapht::search {

std::string PathOf(const std::string& code) {
  size_t p = code.find("// path: ");
  if (p == std::string::npos) return "";
  size_t e = code.find('\n', p);
  return code.substr(p + 9, e == std::string::npos ? std::string::npos : e - p - 9);
}

Result<ChatResponse> PathModel::Chat(const ChatRequest& request) {
  std::lock_guard<std::mutex> lock(mu_);
  ++calls_;
  const std::string& user = request.messages.back().content;
  std::string signature = "void f()";
  // The system prompt carries the signature: "... exactly: void f(...)".
  const std::string& system = request.messages.front().content;
  if (auto p = system.find("exactly: "); p != std::string::npos) {
    signature = system.substr(p + 9, system.find('\n', p) - p - 9);
  }
  std::string reply;
  if (user.find("Propose ") != std::string::npos && user.find("ideas") != std::string::npos) {
    reply = "1. tile it\n2. unroll it\n3. vectorize it\n";
  } else {
    std::string path;
    const std::string marker = "applying one technique: ";
    if (auto p = user.find(marker); p != std::string::npos) {
      std::string name = user.substr(p + marker.size(), user.find('.', p + marker.size()) - p - marker.size());
      std::string id = names_.count(name) ? names_.at(name) : name;
      path = PathOf(user);
      path = path.empty() ? id : path + ">" + id;
    } else if (auto t = user.find("applying this idea: "); t != std::string::npos) {
      std::string idea = user.substr(t + 20, user.find('\n', t) - t - 20);
      path = PathOf(user) + ">" + ReplaceAll(idea, " ", "_");
    } else if (user.find("was rejected by the verifier") != std::string::npos) {
      path = PathOf(user) + ">refined";
    } else {
      path = "standard";
    }
    // The path line, a trivial kernel and the function (its parameters are
    // copied from the signature so the static check sees a definition).
    reply = "```cuda\n// path: " + path + "\n__global__ void k() {}\n" + signature + " { k<<<1, 1>>>(); }\n```";
  }
  ChatResponse r;
  Completion c;
  c.text = reply;
  c.tokens_generated = static_cast<int>(reply.size() / 4);
  r.choices.push_back(c);
  r.tokens_prompt = static_cast<int>(user.size() / 4);
  r.tokens_generated = c.tokens_generated;
  r.model = "path-model";
  return r;
}

Result<VerifyResult> PathEvaluator::Evaluate(const Problem& problem, const std::string& code) {
  (void)problem;
  ++evaluations_;
  VerifyResult r;
  std::string path = PathOf(code);
  double s = score_(path);
  r.candidate_hash = path;
  if (s > 0) {
    r.verdict = Verdict::kCorrect;
    r.speedup = s;
    r.detail = "scripted: correct";
  } else {
    r.verdict = Verdict::kWrongAnswer;
    r.detail = "scripted: wrong answer for path " + path;
  }
  return r;
}

}  // namespace regrapht::search
