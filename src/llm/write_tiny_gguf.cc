// Test tool: writes the tiny random-weight GGUF (tiny_gguf.h) to a path, so
// that shell tests can run the real CLI end to end on the embedded backend.
//   write_tiny_gguf OUT.gguf
#include <cstdio>

#include "llm/tiny_gguf.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: write_tiny_gguf OUT.gguf\n");
    return 2;
  }
  regrapht::llm::TinyGgufOptions o;
  o.vocab_gguf = regrapht::fs::path(REGRAPHT_LLAMA_VOCAB_DIR) / "ggml-vocab-llama-spm.gguf";
  regrapht::Status s = regrapht::llm::WriteTinyGguf(argv[1], o);
  if (!s.ok()) {
    std::fprintf(stderr, "write_tiny_gguf: %s\n", s.ToString().c_str());
    return 1;
  }
  return 0;
}
