closes 3
