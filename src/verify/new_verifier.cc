// NewVerifier (regrapht/verify.h): the factory the commands make their
// Verifier with.
#include <memory>

#include "regrapht/verify.h"

namespace regrapht {

std::unique_ptr<Verifier> NewVerifier(const VerifyOptions& options) {
  return std::make_unique<Verifier>(options);
}

}  // namespace regrapht
