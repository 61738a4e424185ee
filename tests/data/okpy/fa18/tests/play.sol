# rolls0; rolls1; outcomes; score0; score1 (recorded from the reference)
4; 1; 2 3 3 3 6 1 4; 105; 62
3; 2; 4 4 3; 110; 66
2; 2; 5 6 1; 102; 91
6; 1; 1 4 2 2 6; 80; 100
4; 2; 6 3 4 3 5; 104; 64
3; 6; 6 5 3 4; 54; 108
