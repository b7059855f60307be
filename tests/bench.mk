## tests for bench
