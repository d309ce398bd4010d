#include "construct/build_relabeler.h"

#include "graph/llm_relabeler.h"

namespace regrapht::construct {
namespace {

// The two stages and their chain, owned together.
class BuildRelabeler final : public Relabeler {
 public:
  BuildRelabeler(const Taxonomy* taxonomy, LlmBackend* llm, const BuildRelabelerOptions& o)
      : deterministic_(taxonomy, DeterministicOptions(o)),
        by_model_(llm, taxonomy, ModelOptions(o)),
        chain_(&deterministic_, &by_model_) {}
  Result<std::vector<LabelDecision>> Relabel(const RelabelInput& input) override {
    return chain_.Relabel(input);
  }
  std::string_view Name() const override { return chain_.Name(); }

 private:
  static DeterministicRelabelerOptions DeterministicOptions(const BuildRelabelerOptions& o) {
    DeterministicRelabelerOptions d;
    d.threshold = o.threshold;
    d.unknown = o.unknown;
    return d;
  }
  static LlmRelabelerOptions ModelOptions(const BuildRelabelerOptions& o) {
    LlmRelabelerOptions l;
    l.unknown = o.unknown;
    l.system_prompt = o.system_prompt;
    return l;
  }
  DeterministicRelabeler deterministic_;
  LlmRelabeler by_model_;
  ChainRelabeler chain_;
};

}  // namespace

std::unique_ptr<Relabeler> NewBuildRelabeler(const Taxonomy* taxonomy, LlmBackend* llm,
                                             const BuildRelabelerOptions& options) {
  return std::make_unique<BuildRelabeler>(taxonomy, llm, options);
}

}  // namespace regrapht::construct
