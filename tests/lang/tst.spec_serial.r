read 1
read 3
read 5
read 7
read 9
-- @@stderr --
