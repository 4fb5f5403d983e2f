33 second 14
33 second
