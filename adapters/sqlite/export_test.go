package sqlite

// StopWriter stops the debit writer, leaving the database open: the
// contract suite's Close, after which debits are applied one by one.
func (s *Store) StopWriter() { s.debits.Close() }
