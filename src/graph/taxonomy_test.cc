#include "graph/taxonomy.h"

#include <gtest/gtest.h>

#include <set>

#include "graph/relabel.h"
#include "core/strings.h"
#include "graph/test_util.h"

namespace regrapht {
namespace {

using testing_util::SourceDir;

TEST(TaxonomyTest, BuiltinLoadsWithAtLeastThirtyTechniques) {
  auto tax = Taxonomy::Builtin();
  ASSERT_TRUE(tax.ok()) << tax.status().ToString();
  EXPECT_GE(tax->techniques().size(), 30u);
  // Every category holds at least one technique.
  std::set<std::string> used;
  for (const auto& t : tax->techniques()) used.insert(t.category);
  for (const auto& c : tax->categories()) EXPECT_TRUE(used.count(c.id)) << c.id;
  // The first step from serial code is there.
  ASSERT_NE(tax->Find("thread_mapping"), nullptr);
  EXPECT_EQ(tax->Find("no_such_technique"), nullptr);
}

TEST(TaxonomyTest, BuiltinIsTheDataFile) {
  auto text = ReadFile(SourceDir() / "data" / "taxonomy.json");
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  EXPECT_EQ(*text, BuiltinTaxonomyJson()) << "rebuild: the compiled-in copy is stale";
  auto loaded = Taxonomy::Load(SourceDir() / "data" / "taxonomy.json");
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
}

TEST(TaxonomyTest, EverySynonymNameAndIdMapsBackToItsId) {
  auto tax = Taxonomy::Builtin();
  ASSERT_TRUE(tax.ok());
  DeterministicRelabeler relabeler(&*tax);
  size_t checked = 0;
  for (const auto& t : tax->techniques()) {
    std::vector<std::string> phrases = {t.id, t.name};
    phrases.insert(phrases.end(), t.synonyms.begin(), t.synonyms.end());
    for (const auto& p : phrases) {
      LabelDecision d = relabeler.Decide(p);
      EXPECT_TRUE(d.matched()) << p << ": " << d.Describe();
      EXPECT_EQ(d.technique_id, t.id) << p << ": " << d.Describe();
      EXPECT_TRUE(d.rule == LabelRule::kTechniqueId || d.rule == LabelRule::kSynonym) << p;
      // Upper case and extra punctuation do not matter.
      LabelDecision shouted = relabeler.Decide("  " + ToLower(p) + "!  ");
      EXPECT_EQ(shouted.technique_id, t.id) << p;
      ++checked;
    }
  }
  EXPECT_GT(checked, 500u);
}

TEST(TaxonomyTest, TechniquesDocIsGeneratedFromTheData) {
  auto tax = Taxonomy::Builtin();
  ASSERT_TRUE(tax.ok());
  auto doc = ReadFile(SourceDir() / "docs" / "techniques.md");
  ASSERT_TRUE(doc.ok()) << doc.status().ToString();
  for (const auto& t : tax->techniques()) {
    EXPECT_NE(doc->find("`" + t.id + "`"), std::string::npos) << t.id << " missing from the doc";
  }
  EXPECT_EQ(*doc, tax->ToMarkdown())
      << "docs/techniques.md is stale: regenerate it with\n"
         "  build/src/cli/regrapht graph techniques > docs/techniques.md";
}

// A minimal valid document with one edit applied.
std::string Doc(const std::string& techniques, const std::string& extra = "") {
  return R"({"format":"regrapht-taxonomy","version":1,)" + extra +
         R"("categories":[{"id":"memory","name":"Memory","description":"d"}],"techniques":[)" +
         techniques + "]}";
}

const char* kTiling =
    R"({"id":"tiling","name":"Tiling","category":"memory","description":"Tile it.","synonyms":["shared memory tiling","tiles"]})";

TEST(TaxonomyTest, ValidationErrorsNameTheField) {
  struct Case {
    std::string doc;
    std::string error;
  };
  std::vector<Case> cases = {
      {Doc(kTiling, R"("extra":1,)"),
       "t.json: extra: unknown field (allowed: format, version, categories, techniques)"},
      {Doc(R"({"id":"Tiling","name":"T","category":"memory","description":"d","synonyms":["x y"]})"),
       "t.json: techniques[0].id: expected snake_case, got \"Tiling\""},
      {Doc(R"({"id":"t","name":"T","category":"compute","description":"d","synonyms":["x y"]})"),
       "t.json: techniques[0].category: unknown category \"compute\""},
      {Doc(R"({"id":"t","name":"T","category":"memory","description":"d","synonyms":["ok","Tiles"]})"),
       "t.json: techniques[0].synonyms[1]: synonyms must be lowercase, got \"Tiles\""},
      {Doc(R"({"id":"t","name":"T","category":"memory","description":"d","synonyms":["use the"]})"),
       "t.json: techniques[0].synonyms[0]: \"use the\" has no content words (only stop words)"},
      {Doc(R"({"id":"t","name":"T","category":"memory","description":"d","synonyms":["a b","a-b"]})"),
       "t.json: techniques[0].synonyms[1]: \"a-b\" duplicates synonyms[0]"},
      {Doc(std::string(kTiling) + "," + kTiling),
       "t.json: techniques[1].id: \"tiling\" is already techniques[0]"},
      {Doc(std::string(kTiling) +
           R"(,{"id":"smem","name":"Shared","category":"memory","description":"d","synonyms":["shared-memory tiling"]})"),
       "t.json: techniques[1].synonyms[0]: \"shared-memory tiling\" is already claimed by tiling "
       "(techniques[0].synonyms[0])"},
      {Doc(std::string(kTiling) +
           R"(,{"id":"smem","name":"Shared","category":"memory","description":"d","synonyms":["tiling using shared memory"]})"),
       "t.json: techniques[1].synonyms[0]: \"tiling using shared memory\" has the same content "
       "words (memory shar til) as \"shared memory tiling\" of tiling (techniques[0].synonyms[0])"},
      {Doc(R"({"id":"t","name":"T","category":"memory","description":"two\nlines","synonyms":["x y"]})"),
       "t.json: techniques[0].description: must be one line"},
      {Doc(R"({"id":"t","name":"T","category":"memory","description":"d","synonyms":[]})"),
       "t.json: techniques[0].synonyms: expected at least one synonym"},
      {R"({"format":"regrapht-taxonomy","version":2,"categories":[],"techniques":[]})",
       "t.json: version: unsupported version 2 (this build reads 1)"},
  };
  for (const auto& c : cases) {
    auto tax = Taxonomy::Parse(c.doc, "t.json");
    ASSERT_FALSE(tax.ok()) << c.doc;
    EXPECT_EQ(tax.status().message(), c.error);
  }
  auto ok = Taxonomy::Parse(Doc(kTiling), "t.json");
  EXPECT_TRUE(ok.ok()) << ok.status().ToString();
}

}  // namespace
}  // namespace regrapht
