// Test tool: writes the HTML report's fixed results set (report_fixture.h)
// into a results database, for the CLI and browser tests of `report`.
//   report_fixture_db OUT.db
#include <cstdio>

#include "bench/report_fixture.h"

int main(int argc, char** argv) {
  using namespace regrapht;
  if (argc != 2) {
    std::fprintf(stderr, "usage: report_fixture_db OUT.db\n");
    return 2;
  }
  auto store = ResultsStore::Open(argv[1]);
  if (!store.ok()) {
    std::fprintf(stderr, "report_fixture_db: %s\n", store.status().ToString().c_str());
    return 1;
  }
  for (const auto& r : bench::fixture::Rows()) {
    Status s = (*store)->Put(r);
    if (!s.ok()) {
      std::fprintf(stderr, "report_fixture_db: %s\n", s.ToString().c_str());
      return 1;
    }
  }
  Status s = (*store)->PutPlan(bench::fixture::Plan());
  if (!s.ok()) {
    std::fprintf(stderr, "report_fixture_db: %s\n", s.ToString().c_str());
    return 1;
  }
  return 0;
}
