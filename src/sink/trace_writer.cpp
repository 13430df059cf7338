#include "sink/trace_writer.hpp"

#include <array>
#include <charconv>
#include <string>

#include "core/time_format.hpp"

namespace wt {
namespace {

// Column order of recorded CSV files; names as nvidia-smi's --query-gpu spells them.
struct OutColumn {
  Signal signal;
  std::string_view header;
};
constexpr std::array<OutColumn, kSignalCount> kOutColumns{{
    {Signal::GpuUtil, "utilization.gpu [%]"},
    {Signal::MemUtil, "utilization.memory [%]"},
    {Signal::MemUsed, "memory.used [MiB]"},
    {Signal::MemTotal, "memory.total [MiB]"},
    {Signal::Power, "power.draw [W]"},
    {Signal::PowerLimit, "power.limit [W]"},
    {Signal::Temperature, "temperature.gpu"},
    {Signal::SmClock, "clocks.sm [MHz]"},
    {Signal::MemClock, "clocks.mem [MHz]"},
    {Signal::PcieTx, "pcie.tx [MB/s]"},
    {Signal::PcieRx, "pcie.rx [MB/s]"},
    {Signal::NvlinkTx, "nvlink.tx [MB/s]"},
    {Signal::NvlinkRx, "nvlink.rx [MB/s]"},
    {Signal::ProcessCount, "processes.count"},
}};

void put_text(std::string& line, const std::string& text) {
  if (text.empty()) {
    line += "[N/A]";
  } else if (text.find_first_of(",\"") != std::string::npos) {
    line += '"';
    for (char c : text) line += c == '"' ? '\'' : c;  // CSV has no escape nvidia-smi readers share
    line += '"';
  } else {
    line += text;
  }
}

// The header comes with the first sample: a source that names hosts (Prometheus) gets a host
// column, one that does not keeps nvidia-smi's layout.
class CsvWriter final : public TraceWriter {
 public:
  explicit CsvWriter(std::ostream& out) : out_(out) {}
  void write(const Sample& s) override {
    if (!header_written_) write_header(!s.gpu->host.empty());
    line_ = format_nvidia_smi_time(s.time_s);
    (line_ += ", ") += std::to_string(s.gpu->index);
    for (const std::string* text : {&s.gpu->uuid, &s.gpu->name, &s.gpu->pci_bus_id}) {
      line_ += ", ";
      put_text(line_, *text);
    }
    if (with_host_) {
      line_ += ", ";
      put_text(line_, s.gpu->host);
    }
    for (const auto& c : kOutColumns) {
      line_ += ", ";
      if (!s.values.has(c.signal)) {
        line_ += "[N/A]";
        continue;
      }
      char buf[32];
      const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, s.values.value(c.signal));
      line_.append(buf, end);
      if (const auto unit = info(c.signal).unit; !unit.empty())
        (line_ += ' ') += unit;
    }
    out_ << line_ << '\n';
  }

 private:
  void write_header(bool with_host) {
    std::string header = "timestamp, index, uuid, name, pci.bus_id";
    if (with_host) header += ", host";
    for (const auto& c : kOutColumns) (header += ", ") += c.header;
    out_ << header << '\n';
    header_written_ = true;
    with_host_ = with_host;
  }

  std::ostream& out_;
  std::string line_;
  bool header_written_ = false, with_host_ = false;
};

class JsonlWriter final : public TraceWriter {
 public:
  explicit JsonlWriter(std::ostream& out) : out_(out) { out_ << jsonl_header() << '\n'; }
  void write(const Sample& s) override { out_ << to_jsonl(s) << '\n'; }

 private:
  std::ostream& out_;
};

}  // namespace

std::unique_ptr<TraceWriter> make_trace_writer(TraceFormat format, std::ostream& out) {
  if (format == TraceFormat::Jsonl) return std::make_unique<JsonlWriter>(out);
  return std::make_unique<CsvWriter>(out);
}

}  // namespace wt
