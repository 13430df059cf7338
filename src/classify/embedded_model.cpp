// The default model, assembled into the binary (.incbin) so that nothing has to be found on
// disk at run time. The file is models/workloadtruth.model.json, rebuilt by `workloadtruth train`.
#include <string_view>

#include "classify/model_bundle.hpp"

// WT_MODEL_FILE is the model's absolute path, set by src/CMakeLists.txt.
asm(".pushsection .rodata\n"
    ".globl wt_embedded_model_begin\n"
    ".hidden wt_embedded_model_begin\n"
    ".globl wt_embedded_model_end\n"
    ".hidden wt_embedded_model_end\n"
    "wt_embedded_model_begin:\n"
    ".incbin \"" WT_MODEL_FILE "\"\n"
    "wt_embedded_model_end:\n"
    ".popsection\n");

extern "C" const char wt_embedded_model_begin[];
extern "C" const char wt_embedded_model_end[];

namespace wt {

std::string_view embedded_model_json() {
  return {wt_embedded_model_begin, static_cast<std::size_t>(wt_embedded_model_end - wt_embedded_model_begin)};
}

}  // namespace wt
