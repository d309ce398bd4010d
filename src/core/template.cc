#include "core/template.h"

namespace regrapht {

Result<std::string> RenderTemplate(const std::string& text,
                                   const std::map<std::string, std::string>& vars,
                                   const std::string& source) {
  std::string out;
  size_t pos = 0;
  while (true) {
    size_t open = text.find("{{", pos);
    if (open == std::string::npos) {
      out.append(text, pos, std::string::npos);
      return out;
    }
    size_t close = text.find("}}", open + 2);
    if (close == std::string::npos) {
      return Status::InvalidArgument(source + ": unterminated {{ placeholder");
    }
    out.append(text, pos, open - pos);
    std::string name = text.substr(open + 2, close - open - 2);
    auto it = vars.find(name);
    if (it == vars.end()) return Status::InvalidArgument(source + ": no value for {{" + name + "}}");
    out += it->second;
    pos = close + 2;
  }
}

}  // namespace regrapht
