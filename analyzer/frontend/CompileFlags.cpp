#include "analyzer/frontend/CompileFlags.h"

#include <llvm/ADT/StringRef.h>
#include <llvm/ADT/StringSwitch.h>
#include <llvm/Support/Path.h>

#include <cstdlib>

namespace gpurace::analyzer {

std::string cudaIncludeDir() {
  if (const char *dir = std::getenv("GPURACE_CUDA_INCLUDE"))
    return dir;
  return GPURACE_ANALYZER_INCLUDE_DIR;
}

namespace {

using llvm::StringRef;

// nvcc's default when a command names no architecture.
constexpr const char *kDefaultArch = "sm_75";

// Flags that shape the parse and take a value, joined ("-Ifoo") or as the
// next argument ("-I foo"), with nvcc's long spellings mapped to Clang's.
StringRef clangSpellingOf(StringRef flag) {
  return llvm::StringSwitch<StringRef>(flag)
      .Cases({"-I", "--include-path"}, "-I")
      .Cases({"-D", "--define-macro"}, "-D")
      .Cases({"-U", "--undefine-macro"}, "-U")
      .Cases({"-isystem", "--system-include"}, "-isystem")
      .Cases({"-include", "--pre-include"}, "-include")
      .Case("-iquote", "-iquote")
      .Case("-idirafter", "-idirafter")
      .Default("");
}

// Flags that take a value and do not change how a file parses.
bool isIrrelevantWithValue(StringRef flag) {
  return llvm::StringSwitch<bool>(flag)
      .Cases({"-o", "--output-file", "-Xptxas", "--ptxas-options", "-Xnvlink"}, true)
      .Cases({"--nvlink-options", "-Xlinker", "--linker-options", "-ccbin"}, true)
      .Cases({"--compiler-bindir", "-maxrregcount", "--maxrregcount", "-Xcudafe"}, true)
      .Cases({"-t", "--threads", "-MF", "-MT", "-MQ"}, true)
      .Cases({"--diag-suppress", "-diag-suppress", "-cudart", "--cudart"}, true)
      .Cases({"--default-stream", "-default-stream", "-Xfatbin", "-Xarchive"}, true)
      .Cases({"-odir", "--output-directory", "-code", "--gpu-code"}, true)
      .Cases({"--diag-warn", "--diag-error", "-x", "--x"}, true)
      .Default(false);
}

// Flags without a value that do not change how a file parses.
bool isIrrelevant(StringRef arg) {
  static const char *const kPrefixes[] = {
      "-O", "-g", "-M", "-l", "-L", "-ftz=", "-prec-div=", "-prec-sqrt=",
      "-fmad=", "--ftz=", "--prec-div=", "--prec-sqrt=", "--fmad=",
      "-Xptxas=", "--ptxas-options=", "-Xnvlink=", "-Xlinker=", "-ccbin=",
      "--compiler-bindir=", "-maxrregcount=", "--maxrregcount=", "-Xcudafe=",
      "--threads=", "-t=", "--diag-suppress=", "-diag-suppress=", "-cudart=",
      "--cudart=", "--default-stream=", "-default-stream=", "-Werror",
      "--Werror", "-code=", "--gpu-code=", "-o=", "--output-file=",
      "-Wno-deprecated-gpu-targets", "-fPIC", "-fpic", "-fPIE", "-fpie",
      "-fdiagnostics", "-fcolor-diagnostics", "-fno-color-diagnostics",
      "-static-global-template-stub", "--static-global-template-stub",
      "-fvisibility", "-pipe", "-march=", "-mtune=", "-flto", "-fstack-protector",
  };
  for (const char *prefix : kPrefixes)
    if (arg.starts_with(prefix))
      return true;
  return llvm::StringSwitch<bool>(arg)
      .Cases({"-c", "--compile", "-G", "--device-debug", "-lineinfo"}, true)
      .Cases({"--generate-line-info", "--use_fast_math", "-use_fast_math"}, true)
      .Cases({"--expt-relaxed-constexpr", "-expt-relaxed-constexpr"}, true)
      .Cases({"--expt-extended-lambda", "-expt-extended-lambda", "--extended-lambda"}, true)
      .Cases({"-extended-lambda", "--keep", "-keep", "-res-usage", "--resource-usage"}, true)
      .Cases({"-forward-unknown-to-host-compiler", "--forward-unknown-to-host-compiler"}, true)
      .Cases({"-shared", "-pthread", "-m64"}, true)
      .Cases({"--display-error-number", "-cuda", "--cuda", "-dlink", "--device-link"}, true)
      .Cases({"-fopenmp", "-v", "--verbose", "-Wall", "-Wextra"}, true)
      .Default(false);
}

// "compute_80", "sm_80", "sm_90a" -> "sm_80", "sm_90a"; "native", "all" and
// virtual-only lists give nothing.
std::string smOf(StringRef arch) {
  arch = arch.trim();
  if (arch.consume_front("sm_") || arch.consume_front("compute_") ||
      arch.consume_front("lto_"))
    return "sm_" + arch.str();
  return "";
}

// -gencode arch=compute_80,code=[sm_80,compute_80]: the real architecture.
std::string smOfGencode(StringRef value) {
  std::string from_code, from_arch;
  llvm::SmallVector<StringRef, 4> parts;
  value.split(parts, ',');
  for (StringRef part : parts) {
    part = part.trim().trim("[]\"'");
    if (part.consume_front("arch="))
      from_arch = smOf(part);
    else if (part.consume_front("code=") && from_code.empty() && part.starts_with("sm_"))
      from_code = smOf(part);
    else if (from_code.empty() && part.starts_with("sm_"))
      from_code = smOf(part);
  }
  return from_code.empty() ? from_arch : from_code;
}

class FlagReader {
public:
  explicit FlagReader(bool keep_unknown) : keep_unknown_(keep_unknown) {}

  void read(const std::vector<std::string> &args, size_t first) {
    for (size_t i = first; i < args.size(); ++i) {
      auto next = [&]() -> std::string {
        return i + 1 < args.size() ? args[++i] : std::string();
      };
      readOne(args[i], next);
    }
  }

  ParsingFlags take() { return std::move(out_); }

private:
  template <typename Next> void readOne(StringRef arg, Next next) {
    if (!arg.starts_with("-")) {
      // The source file itself, or a stray value.
      if (keep_unknown_)
        out_.flags.push_back(arg.str());
      return;
    }
    auto [name, joined] = arg.split('=');
    bool has_joined = arg.contains('=');
    if (readValueFlag(arg, next) || readArch(name, has_joined ? joined : StringRef(), next, has_joined))
      return;
    if (name == "-Xcompiler" || name == "--compiler-options") {
      readHostCompilerFlags(has_joined ? joined.str() : next());
      return;
    }
    if (arg == "-rdc=true" || arg == "--relocatable-device-code=true" || arg == "-dc" ||
        arg == "--device-c" || arg == "-fgpu-rdc") {
      addOnce("-fgpu-rdc");
      return;
    }
    if (arg.starts_with("-std=") || arg.starts_with("--std=")) {
      StringRef standard = arg.split('=').second;
      out_.flags.push_back("-std=" + (standard == "c++03" ? std::string("c++11") : standard.str()));
      return;
    }
    if (arg == "-std" || arg == "--std") {
      std::string standard = next();
      out_.flags.push_back("-std=" + (standard == "c++03" ? std::string("c++11") : standard));
      return;
    }
    if (isIrrelevantWithValue(arg)) {
      next();
      return;
    }
    if (isIrrelevant(arg))
      return;
    if (arg == "-w" || arg.starts_with("-Wno-") || arg == "-fno-exceptions" ||
        arg == "-fno-rtti" || arg == "-fms-extensions" || arg == "-fgnu-keywords" ||
        arg.starts_with("-fno-gnu-keywords") || arg.starts_with("-fcuda-") ||
        arg.starts_with("-fgpu-")) {
      out_.flags.push_back(arg.str());
      return;
    }
    if (keep_unknown_)
      out_.flags.push_back(arg.str());
    else
      out_.dropped.push_back(arg.str());
  }

  // -I dir, -Idir, --include-path=dir and the like.
  template <typename Next> bool readValueFlag(StringRef arg, Next next) {
    StringRef spelling = clangSpellingOf(arg);
    if (!spelling.empty()) {
      std::string value = next();
      if (!value.empty()) {
        out_.flags.push_back(spelling.str());
        out_.flags.push_back(value);
      }
      return true;
    }
    auto [name, value] = arg.split('=');
    spelling = clangSpellingOf(name);
    if (!spelling.empty() && arg.contains('=') && name.starts_with("--")) {
      out_.flags.push_back(spelling.str());
      out_.flags.push_back(value.str());
      return true;
    }
    for (StringRef prefix : {"-I", "-D", "-U", "-isystem", "-iquote", "-idirafter"}) {
      if (arg.starts_with(prefix) && arg.size() > prefix.size() &&
          (prefix.size() == 2 || !arg.starts_with("-include"))) {
        out_.flags.push_back(arg.str());
        return true;
      }
    }
    return false;
  }

  template <typename Next>
  bool readArch(StringRef name, StringRef joined, Next next, bool has_joined) {
    bool arch = name == "-arch" || name == "--gpu-architecture" || name == "--cuda-gpu-arch";
    bool gencode = name == "-gencode" || name == "--generate-code";
    if (!arch && !gencode)
      return false;
    std::string value = has_joined ? joined.str() : next();
    std::string sm = gencode ? smOfGencode(value) : smOf(value);
    if (out_.gpu_arch.empty())
      out_.gpu_arch = sm;
    return true;
  }

  // -Xcompiler -fopenmp,-DFOO=1,-Wall: what the host compiler gets.
  void readHostCompilerFlags(const std::string &list) {
    llvm::SmallVector<StringRef, 8> parts;
    StringRef(list).split(parts, ',', -1, false);
    std::vector<std::string> host;
    for (StringRef part : parts)
      host.push_back(part.trim().str());
    FlagReader reader(false);
    reader.read(host, 0);
    ParsingFlags read = reader.take();
    out_.flags.insert(out_.flags.end(), read.flags.begin(), read.flags.end());
    // The host compiler's own options are its business, not a parse error.
  }

  void addOnce(const std::string &flag) {
    for (const std::string &f : out_.flags)
      if (f == flag)
        return;
    out_.flags.push_back(flag);
  }

  bool keep_unknown_;
  ParsingFlags out_;
};

} // namespace

ParsingFlags parsingFlags(const std::vector<std::string> &command) {
  FlagReader reader(false);
  reader.read(command, 1);
  return reader.take();
}

ParsingFlags commandLineFlags(const std::vector<std::string> &flags) {
  FlagReader reader(true);
  reader.read(flags, 0);
  return reader.take();
}

bool isCudaFile(const std::string &file) {
  StringRef extension = llvm::sys::path::extension(file);
  return extension == ".cu" || extension == ".cuh";
}

std::string targetArch(const std::string &from_flags) {
  return from_flags.empty() ? kDefaultArch : from_flags;
}

std::vector<std::string> clangArguments(const std::string &file,
                                        const ParsingFlags &user_flags,
                                        const HeaderSetup &headers, ParseSide side) {
  // No error limit: every error is needed to tell which kernels it touches.
  // `"text"MACRO` is a string and a macro to GCC, nvcc's host compiler,
  // with a warning; Clang makes the same reading an error by default.
  std::vector<std::string> args = {"clang++", "-fsyntax-only", "-ferror-limit=0", "-resource-dir",
                                   GPURACE_CLANG_RESOURCE_DIR, "-std=c++17",
                                   "-Wno-reserved-user-defined-literal"};
  const std::string fallback = cudaIncludeDir();
  if (isCudaFile(file)) {
    // Relocatable device code: a kernel launched from device code (dynamic
    // parallelism) is an error without it, and its programs' builds pass
    // -rdc=true where a user running the analyzer by hand may not. It
    // changes only linking and code generation, so programs built without
    // it parse the same.
    args.insert(args.end(),
                {"-x", "cuda", "-Wno-unknown-cuda-version",
                 "--cuda-gpu-arch=" + targetArch(user_flags.gpu_arch),
                 side == ParseSide::Host ? "--cuda-host-only" : "--cuda-device-only",
                 "-fgpu-rdc"});
    if (headers.toolkit) {
      // -nocudalib would also hide the toolkit's version from Clang, which
      // then lowers <<<...>>> through the pre-9.2 launch API.
      args.insert(args.end(),
                  {"--cuda-path=" + headers.toolkit->root, "-isystem",
                   headers.toolkit->root + "/include/cccl", "-include",
                   std::string(GPURACE_ANALYZER_TOOLKIT_PRELUDE), "-idirafter", fallback});
    } else {
      // Without a toolkit there is no libdevice either.
      args.insert(args.end(), {"-nocudainc", "-nocudalib", "-isystem", fallback, "-include",
                               "cuda_runtime.h"});
    }
  } else {
    // A host C/C++ file of the program: the host compiler's view only.
    args.insert(args.end(), {"-x", "c++", "-Wno-unknown-attributes"});
    if (headers.toolkit)
      args.insert(args.end(), {"-isystem", headers.toolkit->root + "/include", "-isystem",
                               headers.toolkit->root + "/include/cccl", "-idirafter",
                               fallback});
    else
      args.insert(args.end(), {"-isystem", fallback});
  }
  args.insert(args.end(), user_flags.flags.begin(), user_flags.flags.end());
  args.push_back(file);
  return args;
}

} // namespace gpurace::analyzer
