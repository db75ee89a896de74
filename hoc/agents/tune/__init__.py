"""hoc tune: strong priority-list plans found by search."""
