// A small blocking HTTP client over libcurl, shared by the OpenAI backend and
// model downloads.
//
// Transport failures are Status: Unavailable (could not connect, connection
// reset: worth retrying), DeadlineExceeded (no byte arrived for
// read_timeout_s, or the whole transfer took longer than total_timeout_s),
// Cancelled. Any HTTP status, 4xx and 5xx included, is an OK
// Result carrying that status: callers decide what it means.
//
// Thread safety: HttpFetch may be called from several threads at once.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "regrapht/status.h"

namespace regrapht::llm {

struct HttpRequest {
  std::string method = "GET";  // GET or POST
  std::string url;
  std::vector<std::string> headers;  // "Name: value"
  std::string body;                  // POST body
  double connect_timeout_s = 10;
  double read_timeout_s = 60;        // longest silence while waiting for bytes
  // Longest the whole transfer may take, however steadily bytes arrive (a
  // server dripping one byte a second never trips read_timeout_s); 0: none.
  double total_timeout_s = 0;
  const std::atomic<bool>* cancel = nullptr;
  // When set, body bytes go here instead of HttpResponse::body; returning
  // false aborts the transfer (an IoError).
  std::function<bool(std::string_view)> on_data;
  // Called now and then with bytes received so far in this transfer and the
  // expected total (-1 if unknown).
  std::function<void(int64_t received, int64_t total)> on_progress;
  // Called with each response's status code as its status line arrives
  // (before its body; more than once across redirects).
  std::function<void(long status)> on_status;
};

struct HttpResponse {
  long status = 0;
  std::string body;                           // unless on_data was set
  std::map<std::string, std::string> headers;  // names lower-cased; last value wins
  std::string Header(const std::string& name) const {
    auto it = headers.find(name);
    return it == headers.end() ? std::string() : it->second;
  }
};

Result<HttpResponse> HttpFetch(const HttpRequest& request);

}  // namespace regrapht::llm
