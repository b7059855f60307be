## tests for compare
