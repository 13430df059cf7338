// SIGINT/SIGTERM as a request to stop after the poll in progress, so that what a long-running
// command (watch, record) has gathered is flushed and its files stay whole.
#pragma once

namespace wt::cli {

void install_stop_handlers();

// The signal received since install_stop_handlers() (SIGINT or SIGTERM), or 0.
int stop_signal();

// "SIGINT" or "SIGTERM".
const char* stop_signal_name(int sig);

}  // namespace wt::cli
