#ifndef QUAKEKIT_FUZZER_DRIVER_H
#define QUAKEKIT_FUZZER_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's entry point for programs that have their own `main`
/// (compiler-rt, FuzzerInterface.h). It parses the libFuzzer flags in
/// argc/argv and calls `callback` once per input; it returns only when
/// fuzzing ends without a finding (a crash exits the process).
int LLVMFuzzerRunDriver(int *argc, char ***argv,
                        int (*callback)(const uint8_t *data, size_t size));

#endif
