CPU     ID                    FUNCTION:NAME
  C      1                           :BEGIN                42  text                             
  C      1                           :BEGIN 
  C      1                           :BEGIN hi

  C      1                           :BEGIN 
  C      2                             :END    1     2        3
