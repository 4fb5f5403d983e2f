committed
done 1
