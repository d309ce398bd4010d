// The "rules" method: no model. The task's seed (SearchTask::seed_code, the
// rules' first step of src/seed/seed.h) verified and reported alone, so that
// `optimize --method rules` and `bench --method rules` measure what the
// rules write without spending a generation.
#include "search/attempt_json.h"
#include "search/reasoners.h"
#include "search/search_run.h"

namespace regrapht::search {
namespace {

class Rules final : public Reasoner {
 public:
  explicit Rules(SearchOptions o) : o_(std::move(o)) {
    o_.pipeline = 1;  // nothing to send ahead
  }
  std::string Name() const override { return "rules"; }

  Result<SearchOutcome> Run(const SearchTask& task, const SearchContext& ctx) override {
    SearchRun run(task, ctx, o_, Name());
    if (task.seed_code.empty()) {
      return run.Finish(
          AttemptListJson(Name(), {}),
          "the rules wrote no seed" + (task.seed_note.empty() ? "" : ": " + task.seed_note));
    }
    run.Emit(1, task.seed_technique);
    RG_RETURN_IF_ERROR(run.Seed(task.seed_technique, -1).status());
    return run.Finish(AttemptListJson(Name(), run.attempts()), "the rules' seed, verified");
  }

 private:
  SearchOptions o_;
};

}  // namespace

std::unique_ptr<Reasoner> NewRules(const SearchOptions& options) {
  return std::make_unique<Rules>(options);
}

}  // namespace regrapht::search
