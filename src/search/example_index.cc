// The public handle of the example index (regrapht/search.h).
#include "graph/retrieval.h"
#include "regrapht/search.h"

namespace regrapht {

void ExampleIndexDeleter::operator()(const ExampleIndex* index) const { delete index; }

ExampleIndexPtr NewExampleIndex(const Graph& graph) {
  return ExampleIndexPtr(new ExampleIndex(graph));
}

}  // namespace regrapht
