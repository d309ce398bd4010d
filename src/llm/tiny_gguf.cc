#include "llm/tiny_gguf.h"

#include <ggml.h>
#include <gguf.h>

#include <cmath>
#include <memory>

#include "core/rng.h"

namespace regrapht::llm {
namespace {

constexpr const char* kChatMl =
    "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + "
    "message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}{% if add_generation_prompt %}"
    "{{ '<|im_start|>assistant\\n' }}{% endif %}";

struct GgufFree {
  void operator()(gguf_context* c) const { gguf_free(c); }
};
struct GgmlFree {
  void operator()(ggml_context* c) const { ggml_free(c); }
};

}  // namespace

Status WriteTinyGguf(const fs::path& out, const TinyGgufOptions& o) {
  ggml_context* vocab_tensors = nullptr;
  gguf_init_params vp{/*no_alloc=*/true, &vocab_tensors};
  std::unique_ptr<gguf_context, GgufFree> vocab(gguf_init_from_file(o.vocab_gguf.c_str(), vp));
  std::unique_ptr<ggml_context, GgmlFree> vocab_ctx(vocab_tensors);
  if (!vocab) return Status::NotFound(o.vocab_gguf.string() + ": cannot read vocab GGUF");
  int64_t tokens_key = gguf_find_key(vocab.get(), "tokenizer.ggml.tokens");
  if (tokens_key < 0) return Status::InvalidArgument(o.vocab_gguf.string() + ": no tokens");
  const int n_vocab = static_cast<int>(gguf_get_arr_n(vocab.get(), tokens_key));

  std::unique_ptr<gguf_context, GgufFree> g(gguf_init_empty());
  gguf_set_kv(g.get(), vocab.get());  // tokenizer.* and the vocab's (large) hparams
  gguf_set_val_str(g.get(), "general.name", "regrapht-tiny-random");
  gguf_set_val_u32(g.get(), "general.file_type", 0);  // all F32
  gguf_set_val_u32(g.get(), "llama.context_length", o.context_length);
  gguf_set_val_u32(g.get(), "llama.embedding_length", o.n_embd);
  gguf_set_val_u32(g.get(), "llama.block_count", o.n_layer);
  gguf_set_val_u32(g.get(), "llama.feed_forward_length", o.n_ff);
  gguf_set_val_u32(g.get(), "llama.attention.head_count", o.n_head);
  gguf_set_val_u32(g.get(), "llama.attention.head_count_kv", o.n_head_kv);
  gguf_set_val_u32(g.get(), "llama.rope.dimension_count", o.n_embd / o.n_head);
  gguf_set_val_u32(g.get(), "llama.vocab_size", n_vocab);
  gguf_set_val_f32(g.get(), "llama.attention.layer_norm_rms_epsilon", 1e-5f);
  gguf_set_val_f32(g.get(), "llama.rope.freq_base", 10000.0f);
  if (o.chat_template) {
    gguf_set_val_str(g.get(), "tokenizer.chat_template", kChatMl);
  } else {
    gguf_remove_key(g.get(), "tokenizer.chat_template");
  }

  const int n_embd_kv = o.n_embd / o.n_head * o.n_head_kv;
  size_t floats = 2 * static_cast<size_t>(n_vocab) * o.n_embd + o.n_embd +
                  static_cast<size_t>(o.n_layer) *
                      (2 * o.n_embd + 2 * o.n_embd * o.n_embd + 2 * o.n_embd * n_embd_kv +
                       3 * o.n_embd * o.n_ff);
  ggml_init_params ip{floats * sizeof(float) + 64 * ggml_tensor_overhead() + (1 << 20), nullptr,
                      false};
  std::unique_ptr<ggml_context, GgmlFree> ctx(ggml_init(ip));
  if (!ctx) return Status::Internal("ggml_init failed");

  Rng rng(o.seed);
  auto add = [&](const std::string& name, int64_t ne0, int64_t ne1, float scale, bool ones) {
    ggml_tensor* t = ne1 > 0 ? ggml_new_tensor_2d(ctx.get(), GGML_TYPE_F32, ne0, ne1)
                             : ggml_new_tensor_1d(ctx.get(), GGML_TYPE_F32, ne0);
    ggml_set_name(t, name.c_str());
    auto* d = static_cast<float*>(t->data);
    for (int64_t i = 0; i < ggml_nelements(t); ++i) {
      d[i] = ones ? 1.0f : static_cast<float>((rng.Uniform() * 2 - 1) * scale);
    }
    gguf_add_tensor(g.get(), t);
  };
  const float s = 1.0f / std::sqrt(static_cast<float>(o.n_embd));
  add("token_embd.weight", o.n_embd, n_vocab, 1.0f, false);
  add("output_norm.weight", o.n_embd, 0, 0, true);
  // Small output weights keep the logits flat, so sampling at temperature 1
  // really varies with the seed (tied embeddings would make one token win).
  add("output.weight", o.n_embd, n_vocab, 0.3f * s, false);
  for (int l = 0; l < o.n_layer; ++l) {
    std::string b = "blk." + std::to_string(l) + ".";
    add(b + "attn_norm.weight", o.n_embd, 0, 0, true);
    add(b + "attn_q.weight", o.n_embd, o.n_embd, s, false);
    add(b + "attn_k.weight", o.n_embd, n_embd_kv, s, false);
    add(b + "attn_v.weight", o.n_embd, n_embd_kv, s, false);
    add(b + "attn_output.weight", o.n_embd, o.n_embd, s, false);
    add(b + "ffn_norm.weight", o.n_embd, 0, 0, true);
    add(b + "ffn_gate.weight", o.n_embd, o.n_ff, s, false);
    add(b + "ffn_up.weight", o.n_embd, o.n_ff, s, false);
    add(b + "ffn_down.weight", o.n_ff, o.n_embd, 1.0f / std::sqrt(static_cast<float>(o.n_ff)),
        false);
  }
  if (out.has_parent_path()) RG_RETURN_IF_ERROR(MakeDirs(out.parent_path()));
  if (!gguf_write_to_file(g.get(), out.c_str(), false)) {
    return Status::IoError(out.string() + ": gguf_write_to_file failed");
  }
  return Status::Ok();
}

}  // namespace regrapht::llm
