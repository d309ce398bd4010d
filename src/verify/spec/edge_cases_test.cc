#include "verify/spec/edge_cases.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "core/fs.h"
#include "verify/test_util.h"

namespace regrapht::verify {
namespace {

bool HasNote(const std::vector<TestCase>& v, const std::string& note) {
  return std::any_of(v.begin(), v.end(), [&](const TestCase& t) { return t.note == note; });
}

// clamp_values: an in-out array in [-1000, 1000], scalars lo in [-600, -100]
// and hi in [100, 600]. The largest-magnitude case comes first at the
// largest test size; each argument gets its bounds at a small size; small
// integers only where they lie strictly inside a range (none here for lo).
TEST(EdgeCasesTest, BoundsSmallIntegersAndTheLargestMagnitudes) {
  auto p = LoadProblem(testing_util::SourceDir() / "suites/cudaeval/clamp_values");
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  auto e = EdgeCases(p->spec, 100);
  ASSERT_FALSE(e.empty());
  EXPECT_EQ(e[0].note, "every argument at the largest magnitude its range allows");
  EXPECT_EQ(e[0].edge, "-1 4 0");
  EXPECT_EQ(e[0].sizes.at("n"), 4099);
  EXPECT_TRUE(HasNote(e, "values: every element at its minimum"));
  EXPECT_TRUE(HasNote(e, "lo at its maximum"));
  EXPECT_TRUE(HasNote(e, "hi at its minimum"));
  EXPECT_TRUE(HasNote(e, "values: every element 0"));
  EXPECT_FALSE(HasNote(e, "lo = 0"));  // outside [-600, -100]
  for (const auto& t : e) {
    EXPECT_TRUE(t.scalars.empty());
    EXPECT_FALSE(t.edge.empty());
    if (&t != &e[0]) {
      EXPECT_EQ(t.sizes.at("n"), 16) << t.note;  // the smallest size >= 8
    }
  }
  // Distinct seeds, and the cap keeps the most telling first.
  auto capped = EdgeCases(p->spec, 3);
  ASSERT_EQ(capped.size(), 3u);
  EXPECT_EQ(capped[0].note, e[0].note);
  EXPECT_NE(capped[1].seed, capped[2].seed);
}

// A scalar with a range around zero gets 0, 1, -1 and 2 besides its bounds.
TEST(EdgeCasesTest, ScalarsGetSmallIntegersInsideTheirRange) {
  auto p = LoadProblem(testing_util::SourceDir() / "problems/saxpy");
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  auto e = EdgeCases(p->spec, 100);
  for (const char* n : {"a = 0", "a = 1", "a = -1"}) EXPECT_TRUE(HasNote(e, n)) << n;
}

}  // namespace
}  // namespace regrapht::verify
