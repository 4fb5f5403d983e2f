big
three
