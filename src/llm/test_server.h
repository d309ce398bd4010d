// A cpp-httplib server on 127.0.0.1 (an ephemeral port) for tests of the HTTP
// backend and model downloads. Handlers run on the server's threads.
#pragma once

#include <httplib.h>

#include <chrono>
#include <string>
#include <thread>

namespace regrapht::llm {

class TestServer {
 public:
  TestServer() {
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    for (int i = 0; i < 500 && !server_.is_running(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  }
  ~TestServer() {
    server_.stop();
    thread_.join();
  }
  httplib::Server& server() { return server_; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }

 private:
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
};

}  // namespace regrapht::llm
