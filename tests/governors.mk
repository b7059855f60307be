## tests for governors
