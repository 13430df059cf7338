'use strict';
// The launcher's own exit codes, as a shell gives them; the native binary's are 0-3, so these
// never mix with its own.
module.exports = {
  NOT_FOUND: 127,  // no native binary found (or WORKLOADTRUTH_BIN names no executable file)
  CANNOT_RUN: 126, // found, but the system would not start it
};
