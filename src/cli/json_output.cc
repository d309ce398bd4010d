#include "cli/json_output.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>

namespace regrapht::cli {
namespace {

int g_json_fd = -1;  // the real stdout while --json is on

}  // namespace

CLI::Option* AddJsonFlag(CLI::App* sub, bool* json, const std::string& what) {
  return sub->add_flag("--json", *json, "print " + what + " as one JSON document on stdout (other lines go to stderr)");
}

void BeginJsonOutput() {
  if (g_json_fd >= 0) return;
  std::fflush(stdout);
  int saved = ::dup(STDOUT_FILENO);
  if (saved < 0) return;  // stdout closed: nothing to keep apart
  if (::dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
    ::close(saved);
    return;
  }
  g_json_fd = saved;
}

void EmitJsonText(const std::string& text) {
  std::string doc = text;
  if (doc.empty() || doc.back() != '\n') doc += '\n';
  std::fflush(stdout);
  if (g_json_fd < 0) {
    std::fputs(doc.c_str(), stdout);
    std::fflush(stdout);
    return;
  }
  size_t done = 0;
  while (done < doc.size()) {
    ssize_t n = ::write(g_json_fd, doc.data() + done, doc.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
}

void EmitJson(const Json& doc) { EmitJsonText(DumpJson(doc)); }
void EmitJson(const OrderedJson& doc) { EmitJsonText(DumpJson(doc)); }

}  // namespace regrapht::cli
