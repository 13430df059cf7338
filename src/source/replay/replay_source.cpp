#include "source/replay/replay_source.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace wt {

std::optional<TraceFormat> parse_trace_format(std::string_view name) {
  if (name == "auto") return TraceFormat::Auto;
  if (name == "csv") return TraceFormat::Csv;
  if (name == "dmon") return TraceFormat::Dmon;
  if (name == "dcgmi-dmon") return TraceFormat::DcgmiDmon;
  if (name == "jsonl") return TraceFormat::Jsonl;
  if (name == "rocm-smi") return TraceFormat::RocmSmi;
  if (name == "amd-smi") return TraceFormat::AmdSmi;
  return std::nullopt;
}

ReplaySource::ReplaySource(std::string path, ReplayOptions options)
    : path_(std::move(path)),
      reader_(path_, options.waiting),
      format_(options.format),
      gpu_name_(std::move(options.gpu_name)) {
  const std::string_view head = reader_.head();
  if (std::memchr(head.data(), '\0', head.size()) != nullptr)
    throw InputError(path_ + ": binary data, not a text trace (expected nvidia-smi CSV or JSONL)");
  const std::optional<AmdToolLayout> amd_layout = detect_amd_tool_layout(head);
  if (!amd_layout && (format_ == TraceFormat::Auto || format_ == TraceFormat::RocmSmi) &&
      is_rocm_smi_summary_table(head))
    throw InputError(path_ + ": rocm-smi's summary table (rocm-smi run without options) is not read; log it with "
                     "--csv or --json, or with options that print GPU[N] lines (rocm-smi --showuse --showmemuse "
                     "--showpower --showtemp --showclocks --showmeminfo vram)");
  if (format_ == TraceFormat::Auto) {
    const auto first = head.find_first_not_of(" \t\r\n");
    if (amd_layout)
      format_ = is_amd_smi(*amd_layout) ? TraceFormat::AmdSmi : TraceFormat::RocmSmi;
    else if (looks_like_dcgmi_dmon(head))
      format_ = TraceFormat::DcgmiDmon;
    else if (looks_like_dmon(head) || names_dmon_columns(options.columns))
      format_ = TraceFormat::Dmon;
    else
      format_ = (first != std::string_view::npos && head[first] == '{') ? TraceFormat::Jsonl : TraceFormat::Csv;
  }
  // A CSV or JSONL row always carries its time: an interval given for it would be dropped unseen.
  if (options.interval_s && (format_ == TraceFormat::Csv || format_ == TraceFormat::Jsonl))
    throw std::invalid_argument(path_ + ": --interval has no effect on " +
                                (format_ == TraceFormat::Csv ? "an nvidia-smi CSV log" : "a JSONL trace") +
                                ", whose rows carry their own timestamps (it is for rocm-smi, dcgmi dmon, and amd-smi or "
                                "dmon logs recorded without time)");
  // The other formats name their own fields: columns given for them would be dropped unseen.
  if (!options.columns.empty() && format_ != TraceFormat::Csv && format_ != TraceFormat::Dmon)
    throw std::invalid_argument(path_ + ": --columns is for nvidia-smi CSV or dmon output written without its "
                                "header; this file is read as " +
                                (format_ == TraceFormat::Jsonl       ? std::string("JSONL")
                                 : format_ == TraceFormat::DcgmiDmon ? std::string("dcgmi dmon output")
                                                                     : std::string("rocm-smi or amd-smi output")) +
                                ", which names its own fields");
  interval_given_ = options.interval_s.has_value();
  auto report = [this](Diagnostic d) { this->report(std::move(d)); };
  if (format_ == TraceFormat::RocmSmi || format_ == TraceFormat::AmdSmi) {
    const bool want_rocm = format_ == TraceFormat::RocmSmi;
    if (!amd_layout || is_amd_smi(*amd_layout) == want_rocm)
      throw InputError(path_ + ": not " +
                       (want_rocm ? "rocm-smi --csv, --json or text" : "amd-smi metric --csv or --json") +
                       " output (no such header line at its start)");
    amd_ = std::make_unique<AmdToolLogParser>(path_, report, *amd_layout, options.interval_s);
  } else if (format_ == TraceFormat::Dmon) {
    if (options.columns.empty() && !looks_like_dmon(head))
      throw InputError(path_ + ": not nvidia-smi dmon output (no \"# gpu pwr ...\" header line at its start; for "
                       "--format csv,noheader, give its --columns)");
    dmon_ = std::make_unique<NvidiaSmiDmonParser>(path_, report, options.interval_s, options.columns);
  } else if (format_ == TraceFormat::DcgmiDmon) {
    if (!looks_like_dcgmi_dmon(head))
      throw InputError(path_ + ": not dcgmi dmon output (no \"#Entity ...\" header line at its start)");
    dcgmi_ = std::make_unique<DcgmiDmonParser>(path_, report, options.interval_s);
  } else if (format_ == TraceFormat::Jsonl)
    jsonl_ = std::make_unique<JsonlTraceParser>(path_, report);
  else
    csv_ = std::make_unique<NvidiaSmiCsvParser>(path_, report, std::move(options.columns));
}

bool ReplaySource::next(Sample& out) {
  if (!next_from_file(out)) {
    if (!noted_at_end_) {
      noted_at_end_ = true;
      if (!gpu_name_.empty() && named_.empty())
        report({path_, "--gpu-model named no GPU: the file names the model of every GPU in it", false});
      if (interval_given_ && !dcgmi_ && !(dmon_ && dmon_->interval_used()) && !(amd_ && amd_->interval_used()))
        report({path_, "--interval was not used: every row of the file carries its own time", false});
    }
    return false;
  }
  if (!gpu_name_.empty() && out.gpu->name.empty()) {
    GpuRef& named = named_[out.gpu.get()];
    if (!named) {
      auto id = std::make_shared<GpuIdentity>(*out.gpu);
      id->name = gpu_name_;
      named = std::move(id);
    }
    out.gpu = named;
  }
  return true;
}

bool ReplaySource::next_from_file(Sample& out) {
  if (amd_ && amd_->take_pending(out)) {
    ++samples_;
    return true;
  }
  std::string_view line;
  for (;;) {
    switch (reader_.next(line)) {
      case LineReader::Status::End:
        if (amd_) {
          amd_->end_of_input();
          if (amd_->take_pending(out)) {  // the last run of rocm-smi text
            ++samples_;
            return true;
          }
        }
        if (samples_ == 0) throw InputError(no_samples_message());
        return false;
      case LineReader::Status::TooLong:
        report({at(path_, reader_.line_number()),
                "line longer than " + std::to_string(reader_.max_line_bytes()) + " bytes; skipped", true});
        continue;
      case LineReader::Status::Line:
        break;
    }
    if (line.find('\0') != std::string_view::npos) {
      report({at(path_, reader_.line_number()), "binary data in line; line skipped", true});
      continue;
    }
    const bool ok = csv_    ? csv_->parse_line(line, reader_.line_number(), out)
                    : dmon_ ? dmon_->parse_line(line, reader_.line_number(), out)
                    : dcgmi_ ? dcgmi_->parse_line(line, reader_.line_number(), out)
                    : amd_  ? amd_->parse_line(line, reader_.line_number(), out)
                            : jsonl_->parse_line(line, reader_.line_number(), out);
    if (ok) {
      ++samples_;
      return true;
    }
  }
}

std::string ReplaySource::no_samples_message() const {
  const std::size_t lines = reader_.line_number();
  std::string message = path_ + ": no samples in " + std::to_string(lines) + (lines == 1 ? " line" : " lines");
  // The run stops here, so the skipped lines' reasons would be lost: the first one says why.
  const Diagnostics problems = diagnostics();
  const auto first = std::find_if(problems.begin(), problems.end(), [](const Diagnostic& d) { return d.is_error; });
  if (first == problems.end()) return message;
  message += ": every data line was skipped; the first, " + first->text();
  if (error_count() > 1) message += " (and " + std::to_string(error_count() - 1) + " more)";
  return message;
}

}  // namespace wt
