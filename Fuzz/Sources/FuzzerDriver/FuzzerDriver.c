// Intentionally empty: FuzzerDriver is a header-only target. The symbol it
// declares comes from libFuzzer, linked by `-sanitize=fuzzer`.
