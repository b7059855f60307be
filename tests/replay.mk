## tests for replay
