## tests for tables
