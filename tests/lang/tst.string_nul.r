1 1 0 1
3 3 1
[abc] [abc]
2

  abc                                                               2
