#include "llm/models.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <thread>

#include "core/hash.h"
#include "core/json_util.h"
#include "core/log.h"
#include "core/strings.h"
#include "core/subprocess.h"
#include "llm/http.h"
#include "llm/llama_backend.h"

namespace regrapht::llm {

extern const std::string_view kBuiltinRegistry;

namespace {

double NowSeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::string HumanBytes(double b) {
  char buf[32];
  if (b >= 1e9) {
    std::snprintf(buf, sizeof buf, "%.2f GB", b / 1e9);
  } else if (b >= 1e6) {
    std::snprintf(buf, sizeof buf, "%.1f MB", b / 1e6);
  } else if (b >= 1e3) {
    std::snprintf(buf, sizeof buf, "%.1f kB", b / 1e3);
  } else {
    std::snprintf(buf, sizeof buf, "%.0f B", b);
  }
  return buf;
}

int64_t FileSize(const fs::path& p) {
  std::error_code ec;
  auto s = fs::file_size(p, ec);
  return ec ? -1 : static_cast<int64_t>(s);
}

// The last path component of a URL, without query or fragment.
std::string UrlFileName(const std::string& url) {
  std::string s = url.substr(0, url.find_first_of("?#"));
  size_t slash = s.find_last_of('/');
  return slash == std::string::npos ? s : s.substr(slash + 1);
}

Status CheckFile(const fs::path& path, int64_t size, const std::string& sha256,
                 std::string_view what) {
  int64_t got = FileSize(path);
  if (size >= 0 && got != size) {
    return Status::IoError(std::string(what) + ": size mismatch: expected " +
                           std::to_string(size) + " bytes, got " + std::to_string(got));
  }
  if (!sha256.empty()) {
    RG_ASSIGN_OR_RETURN(std::string digest, Sha256File(path));
    if (digest != ToLower(sha256)) {
      return Status::IoError(std::string(what) + ": sha256 mismatch: expected " + sha256 +
                             ", got " + digest);
    }
  }
  return Status::Ok();
}

}  // namespace

// ---- Registry ----------------------------------------------------------------

const ModelEntry* Registry::Find(std::string_view name) const {
  for (const auto& m : models) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

Result<Registry> ParseRegistry(std::string_view json, std::string_view source) {
  RG_ASSIGN_OR_RETURN(Json doc, ParseJson(json, source));
  JsonPath root(doc, std::string(source));
  RG_RETURN_IF_ERROR(root.ExpectObject());
  RG_RETURN_IF_ERROR(root.CheckKeys({"comment", "default", "models"}));
  Registry reg;
  RG_ASSIGN_OR_RETURN(reg.default_name, root.GetString("default", ""));
  if (!root.Has("models")) return root.FieldError("models", "missing");
  JsonPath models = root["models"];
  RG_RETURN_IF_ERROR(models.ExpectArray());
  auto opt_int = [](const JsonPath& p, std::string_view key) -> Result<int64_t> {
    if (!p.Has(key) || p.json()[std::string(key)].is_null()) return int64_t{-1};
    return p.GetInt(key);
  };
  auto opt_str = [](const JsonPath& p, std::string_view key) -> Result<std::string> {
    if (!p.Has(key) || p.json()[std::string(key)].is_null()) return std::string();
    return p.GetString(key);
  };
  for (size_t i = 0; i < models.json().size(); ++i) {
    JsonPath m = models[i];
    RG_RETURN_IF_ERROR(m.ExpectObject());
    RG_RETURN_IF_ERROR(m.CheckKeys({"name", "description", "url", "size", "sha256",
                                    "archive_member", "file", "file_size", "file_sha256",
                                    "license", "chat_template", "verified", "requantize_from",
                                    "requantize_type"}));
    ModelEntry e;
    RG_ASSIGN_OR_RETURN(e.name, m.GetString("name"));
    RG_ASSIGN_OR_RETURN(e.description, m.GetString("description", ""));
    RG_ASSIGN_OR_RETURN(e.requantize_from, opt_str(m, "requantize_from"));
    RG_ASSIGN_OR_RETURN(e.requantize_type, opt_str(m, "requantize_type"));
    if (e.requantize_from.empty() != e.requantize_type.empty()) {
      return m.FieldError(e.requantize_from.empty() ? "requantize_from" : "requantize_type",
                          "missing: requantize_from and requantize_type go together");
    }
    if (e.requantize_from.empty()) {
      RG_ASSIGN_OR_RETURN(e.url, m.GetString("url"));
    } else if (m.Has("url")) {
      return m.FieldError("url", "a requantized model is made from requantize_from, not downloaded");
    }
    RG_ASSIGN_OR_RETURN(e.size, opt_int(m, "size"));
    RG_ASSIGN_OR_RETURN(e.sha256, opt_str(m, "sha256"));
    RG_ASSIGN_OR_RETURN(e.archive_member, opt_str(m, "archive_member"));
    RG_ASSIGN_OR_RETURN(e.file, m.GetString("file"));
    RG_ASSIGN_OR_RETURN(e.file_size, opt_int(m, "file_size"));
    RG_ASSIGN_OR_RETURN(e.file_sha256, opt_str(m, "file_sha256"));
    RG_ASSIGN_OR_RETURN(e.license, m.GetString("license", ""));
    RG_ASSIGN_OR_RETURN(e.chat_template, m.GetString("chat_template", ""));
    RG_ASSIGN_OR_RETURN(e.verified, m.GetBool("verified", false));
    if (e.file.find('/') != std::string::npos || !EndsWith(e.file, ".gguf")) {
      return m.FieldError("file", "must be a plain file name ending in .gguf");
    }
    if (reg.Find(e.name) != nullptr) return m.FieldError("name", "duplicate name " + e.name);
    reg.models.push_back(std::move(e));
  }
  if (!reg.default_name.empty() && reg.Default() == nullptr) {
    return root.FieldError("default", "names no model in the list");
  }
  for (size_t i = 0; i < reg.models.size(); ++i) {
    const ModelEntry& e = reg.models[i];
    if (e.requantize_from.empty()) continue;
    const ModelEntry* from = reg.Find(e.requantize_from);
    if (from == nullptr || !from->requantize_from.empty()) {
      return models[i].FieldError("requantize_from",
                                  "must name a downloaded model of the list: " + e.requantize_from);
    }
  }
  return reg;
}

Result<Registry> LoadRegistry() {
  if (const char* path = std::getenv("REGRAPHT_MODELS_REGISTRY"); path && *path) {
    RG_ASSIGN_OR_RETURN(std::string text, ReadInputFile(path));
    return ParseRegistry(text, path);
  }
  return ParseRegistry(kBuiltinRegistry, "data/models.json");
}

// ---- Progress ------------------------------------------------------------------

ProgressBar::ProgressBar(std::FILE* out, std::string label)
    : out_(out), label_(std::move(label)), tty_(out && isatty(fileno(out))), start_s_(NowSeconds()) {}

void ProgressBar::Update(int64_t done, int64_t total) {
  if (out_ == nullptr) return;
  double now = NowSeconds();
  if (tty_) {
    if (now - last_draw_s_ < 0.1) return;
    last_draw_s_ = now;
    Draw(done, total, false);
  } else if (total > 0) {
    int decile = static_cast<int>(10 * done / total);
    if (decile == last_decile_ || decile >= 10) return;
    last_decile_ = decile;
    Draw(done, total, false);
  }
}

void ProgressBar::Finish(int64_t done) {
  if (out_ == nullptr) return;
  Draw(done, done, true);
}

void ProgressBar::Draw(int64_t done, int64_t total, bool final) {
  double elapsed = std::max(1e-3, NowSeconds() - start_s_);
  std::string rate = HumanBytes(static_cast<double>(done) / elapsed) + "/s";
  std::string line = label_ + " ";
  if (total > 0) {
    int pct = static_cast<int>(100 * done / total);
    const int width = 30;
    int fill = static_cast<int>(static_cast<int64_t>(width) * done / total);
    line += "[" + std::string(fill, '#') + std::string(width - fill, '.') + "] ";
    char buf[16];
    std::snprintf(buf, sizeof buf, "%3d%% ", pct);
    line += buf;
    line += HumanBytes(static_cast<double>(done)) + " / " + HumanBytes(static_cast<double>(total));
  } else {
    line += HumanBytes(static_cast<double>(done));
  }
  line += "  " + rate;
  if (tty_) {
    std::fprintf(out_, "\r%s\033[K%s", line.c_str(), final ? "\n" : "");
  } else {
    std::fprintf(out_, "%s\n", line.c_str());
  }
  std::fflush(out_);
}

// ---- Downloads -----------------------------------------------------------------

namespace {

// One GET of `url` into `part`, which holds *have bytes: asks for the rest
// (a 206 appends to it, any other status restarts it and sets *have to 0).
// Returns the HTTP status, or the fetch's error.
Result<long> FetchIntoPart(const std::string& url, const fs::path& part, int64_t* have,
                           int64_t size, const DownloadOptions& options, ProgressBar* bar) {
  std::ofstream out;
  int64_t received = 0;
  long status = 0;
  bool opened = false;
  HttpRequest req;
  req.url = url;
  req.connect_timeout_s = options.connect_timeout_s;
  req.read_timeout_s = options.read_timeout_s;
  req.cancel = options.cancel;
  if (*have > 0) req.headers.push_back("Range: bytes=" + std::to_string(*have) + "-");
  // The status line arrives before the body: on the first chunk, a 206
  // appends to the .part file and anything else restarts it.
  req.on_data = [&](std::string_view chunk) {
    if (!opened) {
      opened = true;
      out.open(part, std::ios::binary | (status == 206 ? std::ios::app : std::ios::trunc));
      if (status != 206) *have = 0;
    }
    out.write(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    received += static_cast<int64_t>(chunk.size());
    return static_cast<bool>(out);
  };
  req.on_progress = [&](int64_t, int64_t) { bar->Update(*have + received, size); };
  req.on_status = [&](long code) { status = code; };
  auto r = HttpFetch(req);
  out.close();
  if (!r.ok()) return r.status();
  return r->status;
}

}  // namespace

Status DownloadFile(const std::string& url, const fs::path& dest, int64_t size,
                    const std::string& sha256, const DownloadOptions& options) {
  if (dest.has_parent_path()) RG_RETURN_IF_ERROR(MakeDirs(dest.parent_path()));
  const fs::path part = dest.string() + ".part";
  ProgressBar bar(options.progress,
                  options.label.empty() ? dest.filename().string() : options.label);
  Status last;
  for (int attempt = 0; attempt < std::max(1, options.attempts); ++attempt) {
    int64_t have = std::max<int64_t>(0, FileSize(part));
    if (size >= 0 && have > size) {  // not the file we expect: start over
      fs::remove(part);
      have = 0;
    }
    if (size >= 0 && have == size) break;  // a previous run got every byte
    auto fetched = FetchIntoPart(url, part, &have, size, options, &bar);
    if (fetched.ok()) {
      const long status = *fetched;
      if (status == 200 || status == 206) {
        last = Status::Ok();
        break;
      }
      if (status == 416 && have > 0) {  // range past the end: assume complete, checked below
        last = Status::Ok();
        break;
      }
      std::string msg = "GET " + url + ": HTTP " + std::to_string(status);
      if (status == 429 || status >= 500) {
        last = Status::Unavailable(msg);
      } else {
        fs::remove(part);
        return Status::NotFound(msg);
      }
    } else {
      last = fetched.status();
      if (last.code() == Status::Code::kCancelled) return last;
    }
    if (attempt + 1 < options.attempts) {
      spdlog::warn("{}; resuming in {:.0f} s", last.message(), options.retry_wait_s);
      std::this_thread::sleep_for(std::chrono::duration<double>(options.retry_wait_s));
    }
  }
  RG_RETURN_IF_ERROR(last);
  int64_t got = FileSize(part);
  bar.Finish(got);
  Status check = CheckFile(part, size, sha256, url);
  if (!check.ok()) {
    fs::remove(part);
    return Status(check.code(), check.message() + " (the partial download was deleted)");
  }
  if (sha256.empty()) {
    spdlog::warn("{}: no sha256 known; the download was not verified", dest.filename().string());
  }
  std::error_code ec;
  fs::rename(part, dest, ec);
  if (ec) return Status::IoError(dest.string() + ": rename failed: " + ec.message());
  return Status::Ok();
}

Status ExtractZipMember(const fs::path& zip, const std::string& member, const fs::path& dest) {
  auto runner = NewSubprocessRunner({SandboxMode::kNone, /*use_cgroups=*/false});
  const fs::path tmp = dest.string() + ".extract";
  CommandSpec spec;
  spec.limits.wall_seconds = 600;
  if (!FindProgram("unzip").empty()) {
    spec.argv = {"sh", "-c", "unzip -p \"$1\" \"$2\" > \"$3\"", "sh", zip.string(), member,
                 tmp.string()};
  } else if (!FindProgram("python3").empty()) {
    spec.argv = {"python3", "-c",
                 "import shutil, sys, zipfile\n"
                 "with zipfile.ZipFile(sys.argv[1]) as z, z.open(sys.argv[2]) as src, "
                 "open(sys.argv[3], 'wb') as dst:\n"
                 "    shutil.copyfileobj(src, dst, 1 << 20)\n",
                 zip.string(), member, tmp.string()};
  } else {
    return Status::FailedPrecondition("extracting " + zip.string() +
                                      " needs `unzip` or `python3` on PATH");
  }
  RG_ASSIGN_OR_RETURN(CommandResult r, runner->Run(spec));
  if (!r.ok()) {
    fs::remove(tmp);
    return Status::IoError("cannot extract " + member + " from " + zip.string() + ": " +
                           r.Describe() + " " + std::string(Trim(r.stderr_text)));
  }
  std::error_code ec;
  fs::rename(tmp, dest, ec);
  if (ec) return Status::IoError(dest.string() + ": rename failed: " + ec.message());
  return Status::Ok();
}

Result<fs::path> PullModel(const std::string& name_or_url, const fs::path& models_dir,
                           const Registry& registry, const DownloadOptions& options) {
  ModelEntry entry;
  if (const ModelEntry* known = registry.Find(name_or_url)) {
    entry = *known;
  } else if (StartsWith(name_or_url, "http://") || StartsWith(name_or_url, "https://")) {
    entry.name = name_or_url;
    entry.url = name_or_url;
    std::string file = UrlFileName(name_or_url);
    if (EndsWith(file, ".gguf")) {
      entry.file = file;
    } else {
      return Status::InvalidArgument(
          "a model URL must name a .gguf file (wheels are pulled through a registry entry "
          "with archive_member): " + name_or_url);
    }
  } else {
    std::string names;
    for (const auto& m : registry.models) names += (names.empty() ? "" : ", ") + m.name;
    return Status::NotFound("no model called '" + name_or_url + "' in the registry (" + names +
                            "); or pass an http(s) URL of a .gguf");
  }
  RG_RETURN_IF_ERROR(MakeDirs(models_dir));
  const fs::path dest = models_dir / entry.file;
  if (!entry.requantize_from.empty()) {
    if (fs::exists(dest)) {
      Status ok = CheckFile(dest, entry.file_size, entry.file_sha256, dest.string());
      if (ok.ok()) return dest;
      spdlog::warn("{}; making it again", ok.message());
      fs::remove(dest);
    }
    RG_ASSIGN_OR_RETURN(fs::path source, PullModel(entry.requantize_from, models_dir, registry, options));
    if (options.progress != nullptr) {
      std::fprintf(options.progress, "%s: requantizing %s to %s\n", entry.name.c_str(),
                   source.filename().c_str(), entry.requantize_type.c_str());
    }
    RG_RETURN_IF_ERROR(RequantizeGguf(source, dest, entry.requantize_type));
    Status check = CheckFile(dest, entry.file_size, entry.file_sha256, dest.string());
    if (!check.ok()) {
      fs::remove(dest);
      return Status::IoError(check.message() + " (this llama.cpp writes another file than the registry "
                             "records; pass the source model and `--model` it, or update the registry)");
    }
    return dest;
  }
  if (fs::exists(dest)) {
    Status ok = CheckFile(dest, entry.file_size,
                          entry.archive_member.empty() ? entry.sha256 : entry.file_sha256,
                          dest.string());
    if (ok.ok()) return dest;
    spdlog::warn("{}; downloading again", ok.message());
    fs::remove(dest);
  }
  DownloadOptions o = options;
  if (o.label.empty()) o.label = entry.name;
  if (entry.archive_member.empty()) {
    RG_RETURN_IF_ERROR(DownloadFile(entry.url, dest, entry.size, entry.sha256, o));
    return dest;
  }
  const fs::path archive = models_dir / ".downloads" / UrlFileName(entry.url);
  RG_RETURN_IF_ERROR(DownloadFile(entry.url, archive, entry.size, entry.sha256, o));
  RG_RETURN_IF_ERROR(ExtractZipMember(archive, entry.archive_member, dest));
  Status check = CheckFile(dest, entry.file_size, entry.file_sha256, dest.string());
  if (!check.ok()) {
    fs::remove(dest);
    return check;
  }
  fs::remove(archive);
  return dest;
}

std::vector<InstalledModel> ListModels(const fs::path& models_dir, const Registry& registry) {
  std::vector<InstalledModel> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(models_dir, ec)) {
    if (!e.is_regular_file() || e.path().extension() != ".gguf") continue;
    InstalledModel m{e.path(), FileSize(e.path()), ""};
    for (const auto& r : registry.models) {
      if (r.file == e.path().filename().string()) m.registry_name = r.name;
    }
    out.push_back(std::move(m));
  }
  std::sort(out.begin(), out.end(),
            [](const auto& a, const auto& b) { return a.path.filename() < b.path.filename(); });
  return out;
}

}  // namespace regrapht::llm

namespace regrapht {

fs::path ModelsDir() {
  if (const char* dir = std::getenv("REGRAPHT_MODELS_DIR"); dir && *dir) return ExpandUser(dir);
  return CacheDir() / "models";
}

Result<fs::path> DefaultModelPath() {
  RG_ASSIGN_OR_RETURN(llm::Registry reg, llm::LoadRegistry());
  const llm::ModelEntry* m = reg.Default();
  if (m == nullptr) return Status::NotFound("the model registry names no default model");
  return ModelsDir() / m->file;
}

Result<fs::path> PullModelFile(const std::string& name_or_url, const fs::path& models_dir,
                               bool progress) {
  RG_ASSIGN_OR_RETURN(llm::Registry registry, llm::LoadRegistry());
  llm::DownloadOptions o;
  if (!progress) o.progress = nullptr;
  return llm::PullModel(name_or_url, models_dir, registry, o);
}

Result<ModelCatalog> ListModelCatalog(const fs::path& models_dir) {
  RG_ASSIGN_OR_RETURN(llm::Registry registry, llm::LoadRegistry());
  const std::vector<llm::InstalledModel> present = llm::ListModels(models_dir, registry);
  ModelCatalog catalog;
  catalog.models_dir = models_dir;
  for (const auto& m : registry.models) {
    CatalogModel c;
    c.name = m.name;
    c.description = m.description;
    c.is_default = m.name == registry.default_name;
    auto it = std::find_if(present.begin(), present.end(),
                           [&](const auto& p) { return p.registry_name == m.name; });
    if (it != present.end()) c.path = it->path;
    c.size_bytes = m.file_size >= 0 ? m.file_size : m.size;
    catalog.models.push_back(std::move(c));
  }
  for (const auto& p : present) {
    if (p.registry_name.empty()) catalog.other.push_back({p.path, p.size});
  }
  return catalog;
}

}  // namespace regrapht
