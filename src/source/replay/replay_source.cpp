#include "source/replay/replay_source.hpp"

#include <cstring>

namespace wt {

std::optional<TraceFormat> parse_trace_format(std::string_view name) {
  if (name == "auto") return TraceFormat::Auto;
  if (name == "csv") return TraceFormat::Csv;
  if (name == "jsonl") return TraceFormat::Jsonl;
  return std::nullopt;
}

ReplaySource::ReplaySource(std::string path, ReplayOptions options)
    : path_(std::move(path)), reader_(path_), format_(options.format) {
  const std::string_view head = reader_.head();
  if (std::memchr(head.data(), '\0', head.size()) != nullptr)
    throw InputError(path_ + ": binary data, not a text trace (expected nvidia-smi CSV or JSONL)");
  if (format_ == TraceFormat::Auto) {
    const auto first = head.find_first_not_of(" \t\r\n");
    format_ = (first != std::string_view::npos && head[first] == '{') ? TraceFormat::Jsonl : TraceFormat::Csv;
  }
  auto report = [this](Diagnostic d) { this->report(std::move(d)); };
  if (format_ == TraceFormat::Jsonl)
    jsonl_ = std::make_unique<JsonlTraceParser>(path_, report);
  else
    csv_ = std::make_unique<NvidiaSmiCsvParser>(path_, report, std::move(options.columns));
}

bool ReplaySource::next(Sample& out) {
  std::string_view line;
  for (;;) {
    switch (reader_.next(line)) {
      case LineReader::Status::End:
        if (samples_ == 0)
          throw InputError(path_ + ": no samples in " + std::to_string(reader_.line_number()) + " lines");
        return false;
      case LineReader::Status::TooLong:
        report({at(path_, reader_.line_number()),
                "line longer than " + std::to_string(LineReader::kMaxLineBytes) + " bytes; skipped", true});
        continue;
      case LineReader::Status::Line:
        break;
    }
    if (line.find('\0') != std::string_view::npos) {
      report({at(path_, reader_.line_number()), "binary data in line; line skipped", true});
      continue;
    }
    const bool ok = csv_ ? csv_->parse_line(line, reader_.line_number(), out)
                         : jsonl_->parse_line(line, reader_.line_number(), out);
    if (ok) {
      ++samples_;
      return true;
    }
  }
}

}  // namespace wt
