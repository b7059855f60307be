## tests for traces
