/e
